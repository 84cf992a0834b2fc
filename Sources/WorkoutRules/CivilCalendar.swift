// The proleptic Gregorian calendar by arithmetic on day numbers (days since 1970-01-01), after
// Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms" (`days_from_civil`,
// `civil_from_days`): the one copy that the server's `LocalDay` and the client's public
// `LocalDate` both count with, so that a device's idea of a day is the server's.

/// Day numbers and calendar dates of the proleptic Gregorian calendar.
package enum CivilCalendar {
    /// Days since 1970-01-01 of a date (negative before it). The month is 1...12; the day
    /// is not checked against the month's length (days past it count on).
    ///
    /// - Parameters:
    ///   - year: The year.
    ///   - month: The month, 1...12.
    ///   - day: The day of the month.
    /// - Returns: The day number.
    package static func dayNumber(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = year - (month <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400                                                   // 0...399
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1   // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear    // 0...146096
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number: the epoch shifted to 0000-03-01, so that leap days end each
    /// 400-year era.
    ///
    /// - Parameter dayNumber: Days since 1970-01-01 (negative before it).
    /// - Returns: The year, the month (1...12) and the day of the month.
    package static func date(dayNumber: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097                                                // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365 // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1
        let shiftedMonth = (5 * dayOfYear + 2) / 153                                    // 0...11, March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `year` is a leap year: divisible by 4, except centuries not divisible by 400.
    ///
    /// - Parameter year: A year.
    /// - Returns: `true` for a leap year.
    package static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month.
    ///
    /// - Parameters:
    ///   - year: The year (for February).
    ///   - month: The month, 1...12.
    /// - Returns: 28...31, or 0 for a month outside 1...12.
    package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: isLeapYear(year) ? 29 : 28
        default: 0
        }
    }
}
