// Timestamps on the wire are `int64` milliseconds since 1970-01-01T00:00:00Z (PROTOCOL.md,
// "Conventions"); in this library they are `Date`s.
//
// Conversions go through `timeIntervalSinceReferenceDate` (what `Date` stores) with the
// 2001-1970 offset applied in integer milliseconds, so only one floating-point rounding
// happens each way. Date → milliseconds rounds to the nearest millisecond, for instants
// before 1970 too (an exact half, which binary fractions rarely hit, rounds away from
// 2001-01-01); non-finite or out-of-range values clamp.

import Foundation

extension Date {
    /// Milliseconds from 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z, `Date`'s reference date.
    private static let referenceDateMilliseconds: Int64 = 978_307_200_000

    /// Creates the instant a wire timestamp names.
    ///
    /// - Parameter milliseconds: Milliseconds since 1970-01-01T00:00:00Z (negative before it).
    package init(wireMilliseconds milliseconds: Int64) {
        let sinceReference = milliseconds.subtractingReportingOverflow(Self.referenceDateMilliseconds)
        let value = sinceReference.overflow ? Double(milliseconds) - Double(Self.referenceDateMilliseconds)
            : Double(sinceReference.partialValue)
        self.init(timeIntervalSinceReferenceDate: value / 1000)
    }

    /// Creates the instant a wire timestamp names, or `nil` for 0, which optional wire
    /// timestamps use for "not set" (for example `Achievement.unlocked_at_ms` while locked).
    ///
    /// - Parameter milliseconds: Milliseconds since 1970-01-01T00:00:00Z; 0 = not set.
    init?(wireMillisecondsUnlessZero milliseconds: Int64) {
        guard milliseconds != 0 else { return nil }
        self.init(wireMilliseconds: milliseconds)
    }

    /// This instant as a wire timestamp: milliseconds since 1970-01-01T00:00:00Z, rounded
    /// to the nearest millisecond. NaN maps to 0; instants beyond the `Int64` range clamp
    /// to its ends.
    package var wireMilliseconds: Int64 {
        let sinceReference = (timeIntervalSinceReferenceDate * 1000).rounded(.toNearestOrAwayFromZero)
        guard !sinceReference.isNaN else { return 0 }
        // 2^63 is exactly representable; anything at or beyond it (or infinite) clamps.
        guard sinceReference < 9_223_372_036_854_775_808.0 else { return .max }
        guard sinceReference >= -9_223_372_036_854_775_808.0 else { return .min }
        let (sum, overflow) = Int64(sinceReference).addingReportingOverflow(Self.referenceDateMilliseconds)
        return overflow ? (sinceReference > 0 ? .max : .min) : sum
    }
}

extension Optional where Wrapped == Date {
    /// The wire timestamp of an optional instant: its milliseconds, or 0 when `nil`.
    var wireMilliseconds: Int64 {
        self?.wireMilliseconds ?? 0
    }
}
