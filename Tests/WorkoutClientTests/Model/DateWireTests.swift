import Foundation
import Testing
@testable import WorkoutClient

@Suite("Wire timestamps")
struct DateWireTests {
    @Test("Milliseconds survive the trip through Date", arguments: [
        Int64(0), 1, -1, 999, -999, 1_000, -1_001, 946_684_800_000, 1_764_000_000_123, 1_763_750_000_456,
        -86_400_001, -62_135_596_800_000, 253_402_300_799_999, 4_102_444_800_001,
    ])
    func exactMilliseconds(milliseconds: Int64) {
        #expect(Date(wireMilliseconds: milliseconds).wireMilliseconds == milliseconds)
    }

    @Test("A date made from seconds since 1970 gives its milliseconds", arguments: [
        Int64(1), 7, 123, 456, 999, 1_764_000_000_123, 1_763_750_000_999, -1, -123, -1_234_567,
    ])
    func fromSeconds(milliseconds: Int64) {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        #expect(date.wireMilliseconds == milliseconds)
    }

    @Test("Dates round to the nearest millisecond, before 1970 too", arguments: [
        (1.2344, Int64(1_234)), (1.2346, 1_235), (-1.2344, -1_234), (-1.2346, -1_235),
        (0.0004, 0), (-0.0004, 0), (0.0006, 1), (-0.0006, -1),
        (1_764_000_000.1234, 1_764_000_000_123), (1_764_000_000.1236, 1_764_000_000_124),
        (-1_000_000_000.0004, -1_000_000_000_000), (-1_000_000_000.0006, -1_000_000_000_001),
    ])
    func rounding(seconds: Double, milliseconds: Int64) {
        #expect(Date(timeIntervalSince1970: seconds).wireMilliseconds == milliseconds)
    }

    @Test("Out-of-range and non-finite dates clamp")
    func clamping() {
        #expect(Date(timeIntervalSinceReferenceDate: .infinity).wireMilliseconds == .max)
        #expect(Date(timeIntervalSinceReferenceDate: -.infinity).wireMilliseconds == .min)
        #expect(Date(timeIntervalSinceReferenceDate: .nan).wireMilliseconds == 0)
        #expect(Date(timeIntervalSinceReferenceDate: 1e300).wireMilliseconds == .max)
        #expect(Date.distantFuture.wireMilliseconds == 64_092_211_200_000)
        #expect(Date.distantPast.wireMilliseconds == -62_135_769_600_000)
    }

    @Test("Zero is 'not set' for optional timestamps")
    func optionalTimestamps() {
        #expect(Date(wireMillisecondsUnlessZero: 0) == nil)
        #expect(Date(wireMillisecondsUnlessZero: -1) == Date(wireMilliseconds: -1))
        #expect(Optional<Date>.none.wireMilliseconds == 0)
        #expect(Optional(Date(wireMilliseconds: 5)).wireMilliseconds == 5)
    }
}
