import Foundation
import Synchronization

/// Where the domain reads the time: the system clock in the server, a hand-moved one in tests.
package protocol WallClock: Sendable {
    /// Milliseconds since the Unix epoch, UTC.
    func nowMilliseconds() -> Int64
}

/// The system's real-time clock.
package struct SystemClock: WallClock {
    package init() {}

    package func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// A clock that tests set and advance by hand.
package final class ManualClock: WallClock {
    private let now: Mutex<Int64>

    /// A clock showing `milliseconds`.
    package init(_ milliseconds: Int64) { now = Mutex(milliseconds) }

    package func nowMilliseconds() -> Int64 { now.withLock { $0 } }

    /// Moves the clock by `milliseconds` (may be negative).
    package func advance(by milliseconds: Int64) { now.withLock { $0 += milliseconds } }

    /// Sets the clock.
    package func set(_ milliseconds: Int64) { now.withLock { $0 = milliseconds } }
}
