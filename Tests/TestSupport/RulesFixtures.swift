// Helpers shared by the rules tests and the domain's tests: days and instants from readable strings.

package import Foundation
package import WorkoutRules

extension LocalDay {
    /// A day from `YYYY-MM-DD`; traps on a malformed or out-of-range string (tests only).
    package init(_ text: String) {
        let parts = text.split(separator: "-").map { Int32($0)! }
        self = LocalDay(year: parts[0], month: parts[1], day: parts[2])!
    }
}

/// The zone with an IANA name; traps when unknown (tests only).
package func zone(_ name: String) -> TimeZone {
    TimeZone(identifier: name)!
}

/// Milliseconds since 1970 of an ISO 8601 instant with an offset, e.g.
/// `2026-03-29T00:30:00+01:00` or `2026-03-28T23:00:00Z`.
package func instant(_ iso: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: iso) else { fatalError("bad instant \(iso)") }
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
}

/// Milliseconds in an hour.
package let hour: Int64 = 3_600_000

/// A small seeded generator, so randomized tests repeat.
package struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
