import Testing
import WorkoutBenchKit

/// UUIDv7 record ids.
@Suite("Time-ordered ids")
struct TimeOrderedIDGeneratorTests {
    @Test("Ids carry version 7, the RFC 9562 variant and the millisecond timestamp, and strictly increase — within a millisecond too")
    func ordered() {
        var generator = TimeOrderedIDGenerator(seed: 42)
        var previous: [UInt8] = []
        let start: UInt64 = 1_780_315_200_000
        for index in 0..<10_000 {
            let id = generator.next(milliseconds: start + UInt64(index / 5_000))
            #expect(id.count == 16)
            #expect(id[6] >> 4 == 7)
            #expect(id[8] >> 6 == 0b10)
            let stamp = id[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(stamp >= start && stamp <= start + 3)
            if !previous.isEmpty { #expect(previous.lexicographicallyPrecedes(id)) }
            previous = id
        }
    }

    @Test("A clock that goes back does not make ids go back")
    func clockGoingBack() {
        var generator = TimeOrderedIDGenerator(seed: 1)
        let late = generator.next(milliseconds: 2_000_000_000_000)
        let early = generator.next(milliseconds: 1_000_000_000_000)
        #expect(late.lexicographicallyPrecedes(early))
    }
}
