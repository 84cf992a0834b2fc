/// A moment on a monotonic clock, in nanoseconds from an arbitrary origin: the time the
/// connection state machines are told with every event.
///
/// The machines never read a clock themselves. Drivers pass the uptime clock
/// (`DispatchTime.now().uptimeNanoseconds`); tests pass a manual one, so every timeout is
/// tested without sleeping.
package struct ConnectionInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    package var nanoseconds: UInt64

    /// The instant `nanoseconds` after the clock's origin.
    package init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The clock's origin, the start of a manual clock in tests.
    package static let zero = ConnectionInstant(nanoseconds: 0)

    /// The instant `duration` later (saturating; a negative duration counts as zero).
    package func advanced(by duration: Duration) -> ConnectionInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.wholeNanoseconds)
        return ConnectionInstant(nanoseconds: overflow ? .max : sum)
    }

    /// The time from `earlier` to this instant (zero if `earlier` is later).
    package func since(_ earlier: ConnectionInstant) -> Duration {
        .nanoseconds(Int64(clamping: nanoseconds &- min(earlier.nanoseconds, nanoseconds)))
    }

    /// Whole milliseconds since the origin, for PING stamps.
    package var milliseconds: UInt64 { nanoseconds / 1_000_000 }

    /// Whether `lhs` comes before `rhs`.
    package static func < (lhs: ConnectionInstant, rhs: ConnectionInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant `rhs` after `lhs` (see ``advanced(by:)``).
    package static func + (lhs: ConnectionInstant, rhs: Duration) -> ConnectionInstant {
        lhs.advanced(by: rhs)
    }

    /// E.g. `t+1500.0 ms`, for test failures and logs.
    package var description: String { "t+\(Double(nanoseconds) / 1e6) ms" }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating; zero when negative.
    package var wholeNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let (scaled, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(UInt64(max(0, attoseconds / 1_000_000_000)))
        return overflowed ? .max : sum
    }

    /// The duration in whole milliseconds, saturating at `UInt32.max`; for HELLO fields and
    /// messages.
    package var clampedMilliseconds: UInt32 {
        UInt32(clamping: wholeNanoseconds / 1_000_000)
    }
}
