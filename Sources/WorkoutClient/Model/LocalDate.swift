// LocalDate: a calendar day as a member lived it, with no time and no zone (the wire's
// `LocalDate {year, month, day}`).
//
// Arithmetic is done on the proleptic Gregorian day number (days since 1970-01-01) with the
// shared rules' `CivilCalendar` (Howard Hinnant's algorithms), as the server's, so the
// client's idea of "the day of an instant in a zone" matches the server's exactly:
// `floor((t + offset(t)) / 1 day)`, with the zone's UTC offset at that instant.
//
// The text form is ISO 8601's `YYYY-MM-DD`. The server accepts years 2000...2100; a
// value may hold any real Gregorian date (arithmetic can reach others), and years outside
// 0000...9999 print in ISO 8601's expanded form with a sign ("-0001-12-31",
// "+10000-01-01") so the text form always parses back.

public import Foundation
import WorkoutProtocol
import WorkoutRules

/// A calendar day, e.g. 2026-11-22: the day a workout or meal belongs to, as the member
/// lived it, with no time of day and no time zone.
///
/// Always a real date of the proleptic Gregorian calendar. Codable as the string
/// `"2026-11-22"`.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, LosslessStringConvertible {
    /// The year, e.g. 2026. The server accepts 2000...2100.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...28, 29, 30 or 31 as the month allows.
    public let day: Int

    /// Creates a day from its parts, if they name a real Gregorian date.
    ///
    /// - Parameters:
    ///   - year: The year, e.g. 2026.
    ///   - month: The month, 1...12.
    ///   - day: The day of the month, as the month allows (February 29 only in leap years).
    /// - Returns: `nil` if there is no such date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month) else {
            return nil
        }
        self.init(unchecked: year, month, day)
    }

    /// Parses `YYYY-MM-DD`, e.g. `"2026-11-22"`.
    ///
    /// Exactly four year digits, two month digits and two day digits; years outside
    /// 0000...9999 in the expanded form with a sign and at least four digits
    /// (`"-0001-12-31"`, `"+10000-01-01"`). No surrounding spaces.
    ///
    /// - Parameter description: The text.
    /// - Returns: `nil` if the text is not in that form or names no real date.
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        var index = 0
        var sign: Int?
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            index = 1
        }
        func digits(_ count: ClosedRange<Int>) -> Int? {
            var value = 0
            var taken = 0
            while index < bytes.count, taken < count.upperBound,
                  (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                taken += 1
            }
            return count.contains(taken) ? value : nil
        }
        func dash() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "-") else { return false }
            index += 1
            return true
        }
        guard let magnitude = digits(sign == nil ? 4...4 : 4...9) else { return nil }
        let year = (sign ?? 1) * magnitude
        // The signed form is for years the plain form cannot write.
        if sign != nil, (0...9999).contains(year) { return nil }
        guard dash(), let month = digits(2...2), dash(), let day = digits(2...2), index == bytes.count else {
            return nil
        }
        self.init(year: year, month: month, day: day)
    }

    /// The day a time zone's wall clock shows at an instant.
    ///
    /// - Parameters:
    ///   - date: The instant.
    ///   - zone: The zone whose wall clock decides the day.
    public init(_ date: Date, in zone: TimeZone) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let offset = Double(zone.secondsFromGMT(for: date))
        let days = ((seconds + offset) / 86_400).rounded(.down)
        // Clamp instants beyond ±10^15 days (far past any calendar use) rather than trap.
        self.init(epochDay: days.isNaN ? 0 : Int(max(-1e15, min(1e15, days))))
    }

    /// Today in a time zone.
    ///
    /// The member's today is the day of their profile's zone, which is not always this
    /// device's: ask ``Profile/today(at:)`` for the day the server means by today.
    ///
    /// - Parameter zone: The zone whose wall clock decides the day; the device's by default.
    /// - Returns: The day that zone's wall clock shows now.
    public static func today(in zone: TimeZone = .current) -> LocalDate {
        LocalDate(Date(), in: zone)
    }

    /// The day a number of days after this one (before it, for a negative number).
    ///
    /// - Parameter days: How many days to move.
    /// - Returns: The resulting day.
    public func adding(days: Int) -> LocalDate {
        LocalDate(epochDay: epochDay + days)
    }

    /// The number of days from this day to another.
    ///
    /// - Parameter other: Another day.
    /// - Returns: How many days after this one `other` is (negative if it is earlier).
    public func days(to other: LocalDate) -> Int {
        other.epochDay - epochDay
    }

    /// `YYYY-MM-DD`, e.g. `"2026-11-22"`; years outside 0000...9999 with a sign, as the
    /// string initializer parses them.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        }
        let yearText = switch year {
        case 0...9999: padded(year, 4)
        case ..<0: "-" + padded(-year, 4)
        default: "+" + padded(year, 4)
        }
        return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Whether one day comes before another.
    ///
    /// - Parameters:
    ///   - lhs: A day.
    ///   - rhs: Another day.
    /// - Returns: `true` if `lhs` is earlier than `rhs`.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Decodes a day from its `YYYY-MM-DD` string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` if the string is not a valid day.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = LocalDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a date as YYYY-MM-DD, got \"\(text)\""
            )
        }
        self = value
    }

    /// Encodes this day as its `YYYY-MM-DD` string.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: Calendar arithmetic

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates the day with a given number of days since 1970-01-01.
    ///
    /// - Parameter epochDay: Days since 1970-01-01 (negative before it).
    package init(epochDay: Int) {
        let date = CivilCalendar.date(dayNumber: Int64(epochDay))
        self.init(unchecked: Int(date.year), Int(date.month), Int(date.day))
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (negative before it).
    package var epochDay: Int {
        Int(CivilCalendar.dayNumber(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The number of days in a month: 28...31, or 0 for a month outside 1...12.
    ///
    /// - Parameters:
    ///   - year: The year (for February).
    ///   - month: The month.
    /// - Returns: The month's length in days.
    static func daysInMonth(year: Int, month: Int) -> Int {
        Int(CivilCalendar.daysInMonth(year: Int64(year), month: Int64(month)))
    }
}

// MARK: Wire

extension LocalDate {
    /// Creates a day from the wire, if it is a real date; `nil` for anything else,
    /// including the unset value 0/0/0 (used for optional days such as
    /// `Totals.last_workout_day`).
    ///
    /// - Parameter wire: The wire message.
    init?(wire: Workout_V1_LocalDate) {
        self.init(year: Int(wire.year), month: Int(wire.month), day: Int(wire.day))
    }

    /// Creates a day from the wire where the protocol always sends a real date (a steps
    /// day, a summary period, the day of MealsOfDay). A malformed value, which a correct
    /// server never sends, is clamped into a real date: the month into 1...12, then the
    /// day into 1...the month's length (so 0/0/0 becomes 0000-01-01).
    ///
    /// - Parameter wire: The wire message.
    init(clampingWire wire: Workout_V1_LocalDate) {
        let month = Int(max(1, min(12, wire.month)))
        let day = max(1, min(Int(wire.day), Self.daysInMonth(year: Int(wire.year), month: month)))
        self.init(unchecked: Int(wire.year), month, day)
    }

    /// This day as the wire message (years beyond `Int32` clamp; the server refuses them anyway).
    var wire: Workout_V1_LocalDate {
        var message = Workout_V1_LocalDate()
        message.year = Int32(clamping: year)
        message.month = Int32(month)
        message.day = Int32(day)
        return message
    }
}
