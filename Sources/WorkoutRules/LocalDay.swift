// LocalDay: a calendar date with no time and no zone, and its link to instants.
//
// A workout, meal or weight entry belongs to the local day of its instant in the zone
// it was logged in; streaks, "meals of a day" and summaries are all about local days.
// Date arithmetic is done on the proleptic Gregorian day number (days since
// 1970-01-01), with Howard Hinnant's `days_from_civil` / `civil_from_days` algorithms,
// so it needs no calendar object. Instants and local days meet through the zone's UTC
// offset at an instant (`TimeZone.secondsFromGMT(for:)`, about 100 ns): the local day
// of an instant is `floor((t + offset(t)) / 1 day)`, and the first instant of a day is
// the earliest instant whose local time is at or after that day's midnight — midnight
// itself when it exists (the first of two when clocks fall back over it), the moment
// clocks jump when a DST change skips midnight, and the start of the next day when the
// whole day was skipped (Pacific/Apia, 2011-12-30). A value may hold any date reached
// by arithmetic; the validating initializers accept only the wire bound, 2000...2100.

package import Foundation

/// A calendar date (year, month, day) in the proleptic Gregorian calendar, with no
/// time of day and no time zone, e.g. `2026-03-29`.
package struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2026.
    package let year: Int32
    /// The month, 1...12.
    package let month: Int32
    /// The day of the month, 1...31 as the month allows.
    package let day: Int32

    /// The years a request may name: 2000...2100.
    package static let validYears: ClosedRange<Int32> = 2000...2100
    /// The earliest day a request may name, 2000-01-01.
    package static let earliestValid = LocalDay(unchecked: 2000, 1, 1)
    /// The latest day a request may name, 2100-12-31.
    package static let latestValid = LocalDay(unchecked: 2100, 12, 31)

    /// Milliseconds in a day without a clock change.
    package static let millisecondsPerDay: Int64 = 86_400_000

    private init(unchecked year: Int32, _ month: Int32, _ day: Int32) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates a day if it is a real Gregorian date in the years 2000...2100.
    ///
    /// - Parameters:
    ///   - year: The year, 2000...2100.
    ///   - month: The month, 1...12.
    ///   - day: The day of the month, 1...28/29/30/31 as the month allows.
    /// - Returns: `nil` when the date does not exist or lies outside 2000...2100.
    package init?(year: Int32, month: Int32, day: Int32) {
        guard Self.validYears.contains(year), (1...12).contains(month),
              day >= 1, day <= Self.daysInMonth(year: year, month: month)
        else { return nil }
        self.init(unchecked: year, month, day)
    }

    /// Creates a day from request fields, or throws a message naming the field.
    ///
    /// - Parameters:
    ///   - year: The year, 2000...2100.
    ///   - month: The month, 1...12.
    ///   - day: The day of the month, as the month allows.
    ///   - field: The request field's path, e.g. `from_day`.
    /// - Throws: `DomainError.invalid(field, …)` when the date does not exist or lies
    ///   outside 2000-01-01...2100-12-31.
    package init(validating year: Int32, month: Int32, day: Int32, field: String) throws(DomainError) {
        guard let value = LocalDay(year: year, month: month, day: day) else {
            throw .invalid(field, "\(field) must be a real date from 2000-01-01 to 2100-12-31 (got year \(year), month \(month), day \(day))")
        }
        self = value
    }

    /// Creates the day with the given number of days since 1970-01-01.
    ///
    /// - Parameter epochDay: Days since 1970-01-01 (negative before it).
    package init(epochDay: Int32) {
        let date = CivilCalendar.date(dayNumber: Int64(epochDay))
        self.init(unchecked: Int32(date.year), Int32(date.month), Int32(date.day))
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (negative before it).
    package var epochDay: Int32 {
        Int32(CivilCalendar.dayNumber(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// `YYYY-MM-DD`, e.g. `2026-03-29`.
    package var description: String {
        let y = String(year), m = String(month), d = String(day)
        let paddedYear = year >= 0 && y.count < 4 ? String(repeating: "0", count: 4 - y.count) + y : y
        return "\(paddedYear)-\(m.count < 2 ? "0" + m : m)-\(d.count < 2 ? "0" + d : d)"
    }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: A day.
    ///   - rhs: Another day.
    /// - Returns: `true` if `lhs` is earlier.
    package static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The day `days` days after this one (before it if negative).
    ///
    /// - Parameter days: How many days to move.
    /// - Returns: The resulting day (not checked against 2000...2100).
    package func adding(days: Int32) -> LocalDay {
        LocalDay(epochDay: epochDay + days)
    }

    /// The number of days from this day to `other` (negative if `other` is earlier).
    ///
    /// - Parameter other: Another day.
    /// - Returns: `other.epochDay - epochDay`.
    package func days(to other: LocalDay) -> Int32 {
        other.epochDay - epochDay
    }

    /// The ISO weekday: 1 = Monday ... 7 = Sunday.
    package var isoWeekday: Int32 {
        // 1970-01-01 was a Thursday (ISO 4).
        let e = Int64(epochDay)
        let mondayBased = ((e + 3) % 7 + 7) % 7                                    // 0 = Monday
        return Int32(mondayBased + 1)
    }

    /// The Monday of this day's ISO week (ISO weeks run Monday to Sunday).
    package var isoWeekStart: LocalDay {
        adding(days: 1 - isoWeekday)
    }

    /// Whether `year` is a Gregorian leap year.
    ///
    /// - Parameter year: A year.
    /// - Returns: `true` for years divisible by 4, except centuries not divisible by 400.
    package static func isLeapYear(_ year: Int32) -> Bool {
        CivilCalendar.isLeapYear(Int64(year))
    }

    /// The number of days in a month.
    ///
    /// - Parameters:
    ///   - year: The year (for February).
    ///   - month: The month, 1...12.
    /// - Returns: 28...31, or 0 for a month outside 1...12.
    package static func daysInMonth(year: Int32, month: Int32) -> Int32 {
        Int32(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month)))
    }

    // MARK: Instants

    /// The local day of an instant in a time zone.
    ///
    /// - Parameters:
    ///   - milliseconds: The instant, in milliseconds since 1970-01-01T00:00:00Z.
    ///   - zone: The zone whose wall clock decides the day.
    /// - Returns: The day the zone's wall clock shows at that instant.
    /// - Precondition: The instant lies within about ±5 million years of 1970 (traps
    ///   beyond); validated event times always do.
    package static func containing(instant milliseconds: Int64, in zone: TimeZone) -> LocalDay {
        let local = milliseconds + offsetMilliseconds(at: milliseconds, in: zone)
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: millisecondsPerDay)
        return LocalDay(epochDay: Int32(remainder < 0 ? quotient - 1 : quotient))
    }

    /// The first instant of this day in a zone: local midnight when it exists (the
    /// earlier one when clocks fall back over midnight), otherwise the first instant
    /// that exists on this day (the moment clocks jump forward past midnight), or the
    /// start of the next existing day when the zone skipped this whole day.
    ///
    /// - Parameter zone: The zone whose wall clock decides the day.
    /// - Returns: Milliseconds since 1970-01-01T00:00:00Z.
    package func startInstant(in zone: TimeZone) -> Int64 {
        let midnight = Int64(epochDay) * Self.millisecondsPerDay                  // local midnight, as if UTC
        let before = Self.offsetMilliseconds(at: midnight - Self.millisecondsPerDay, in: zone)
        let after = Self.offsetMilliseconds(at: midnight + Self.millisecondsPerDay, in: zone)
        let candidates = [
            before, after,
            Self.offsetMilliseconds(at: midnight - before, in: zone),
            Self.offsetMilliseconds(at: midnight - after, in: zone),
        ]
        // An instant t shows local midnight when t + offset(t) == midnight.
        var earliest: Int64?
        for offset in candidates {
            let instant = midnight - offset
            if Self.offsetMilliseconds(at: instant, in: zone) == offset {
                earliest = min(earliest ?? instant, instant)
            }
        }
        if let earliest { return earliest }
        // Midnight was skipped: find the first instant whose wall clock is at or after
        // it. Offsets stay within ±16 h, so the answer lies in (low, high].
        var low = midnight - 16 * 3_600_000                                        // shows before midnight
        var high = midnight + 16 * 3_600_000                                       // shows after midnight
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if middle + Self.offsetMilliseconds(at: middle, in: zone) >= midnight { high = middle } else { low = middle }
        }
        return high
    }

    /// The instants of this day in a zone: from its first instant up to the first
    /// instant of the next day. 24 hours on most days, 23 or 25 on DST days (23.5 or
    /// 24.5 in Australia/Lord_Howe), empty for a day the zone skipped.
    ///
    /// - Parameter zone: The zone whose wall clock decides the day.
    /// - Returns: Milliseconds since 1970-01-01T00:00:00Z, half-open.
    package func interval(in zone: TimeZone) -> Range<Int64> {
        startInstant(in: zone)..<adding(days: 1).startInstant(in: zone)
    }

    /// The zone's offset from UTC at an instant.
    ///
    /// - Parameters:
    ///   - milliseconds: The instant, in milliseconds since 1970-01-01T00:00:00Z.
    ///   - zone: The zone.
    /// - Returns: The offset in milliseconds (positive east of Greenwich).
    package static func offsetMilliseconds(at milliseconds: Int64, in zone: TimeZone) -> Int64 {
        // Floor to whole seconds: zone transitions happen on whole seconds, and whole
        // seconds are exact as a Double.
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let seconds = remainder < 0 ? quotient - 1 : quotient
        return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))) * 1000
    }
}
