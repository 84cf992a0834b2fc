import ArgumentParser
import Foundation
import WorkoutClient

/// A time given on the command line (`--at`): a time of day today, a local date and time,
/// or an instant with its UTC offset.
///
/// Accepted forms:
/// - `HH:MM` (or `H:MM`): today, in the member's zone (``MemberZone``);
/// - `YYYY-MM-DDTHH:MM[:SS]` (a space may replace the `T`): in the member's zone;
/// - ISO 8601 with an offset: `2025-06-01T07:30:00+02:00`, `2025-06-01T05:30Z`,
///   fractional seconds allowed.
///
/// Parsed without knowing the time or zone; ``resolve(now:in:)`` turns it into an instant.
enum TimeArgument: Equatable, Sendable {
    /// A time of day, today.
    case clock(hour: Int, minute: Int)
    /// A date and time in the local zone.
    case local(day: LocalDate, hour: Int, minute: Int, second: Double)
    /// An instant, its offset given.
    case instant(Date)

    /// Parses a `--at` value.
    ///
    /// - Parameter text: What the user typed.
    /// - Throws: `ValidationError` naming the accepted forms.
    init(parsing text: String) throws(ValidationError) {
        guard let value = Self.parse(text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError(
                "expected HH:MM (today), YYYY-MM-DDTHH:MM (local time) or ISO 8601 with an offset such as 2025-06-01T07:30:00+02:00")
        }
        self = value
    }

    /// The instant meant.
    ///
    /// - Parameters:
    ///   - now: The current time (for `HH:MM`: which day is today).
    ///   - zone: The local time zone.
    /// - Returns: The instant; for a local time that a daylight-saving change skips, the
    ///   instant the clock reads it after the change.
    func resolve(now: Date, in zone: TimeZone) -> Date {
        switch self {
        case .clock(let hour, let minute):
            return Self.date(LocalDate(now, in: zone), hour: hour, minute: minute, second: 0, zone: zone)
        case .local(let day, let hour, let minute, let second):
            return Self.date(day, hour: hour, minute: minute, second: second, zone: zone)
        case .instant(let date):
            return date
        }
    }

    /// The instant of a local date and time in `zone`.
    private static func date(_ day: LocalDate, hour: Int, minute: Int, second: Double, zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let whole = Int(second)
        let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: whole)
        let base = calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
        return base.addingTimeInterval(second - Double(whole))
    }

    /// The grammar, by hand: Foundation's ISO 8601 parser wants seconds and an offset.
    private static func parse(_ text: String) -> TimeArgument? {
        var scanner = TextScanner(text)
        if let hour = scanner.digits(1...2), scanner.take(":"), let minute = scanner.digits(2...2), scanner.atEnd {
            guard hour < 24, minute < 60 else { return nil }
            return .clock(hour: hour, minute: minute)
        }
        scanner = TextScanner(text)
        guard let year = scanner.digits(4...4), scanner.take("-"), let month = scanner.digits(2...2), scanner.take("-"),
              let dayNumber = scanner.digits(2...2), let day = LocalDate(year: year, month: month, day: dayNumber),
              scanner.take("T") || scanner.take("t") || scanner.take(" "),
              let hour = scanner.digits(2...2), scanner.take(":"), let minute = scanner.digits(2...2),
              hour < 24, minute < 60
        else { return nil }
        var second = 0.0
        if scanner.take(":") {
            guard let whole = scanner.digits(2...2), whole < 60 else { return nil }
            second = Double(whole)
            if scanner.take(".") || scanner.take(",") {
                guard let fraction = scanner.fraction() else { return nil }
                second += fraction
            }
        }
        if scanner.atEnd { return .local(day: day, hour: hour, minute: minute, second: second) }
        // An offset: Z, ±HH, ±HHMM or ±HH:MM.
        let offsetSeconds: Int
        if scanner.take("Z") || scanner.take("z") {
            offsetSeconds = 0
        } else {
            let sign: Int
            if scanner.take("+") { sign = 1 } else if scanner.take("-") || scanner.take("\u{2212}") { sign = -1 } else { return nil }
            guard let hours = scanner.digits(2...2), hours <= 18 else { return nil }
            var minutes = 0
            if !scanner.atEnd {
                _ = scanner.take(":")
                guard let value = scanner.digits(2...2), value < 60 else { return nil }
                minutes = value
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.atEnd, let zone = TimeZone(secondsFromGMT: offsetSeconds) else { return nil }
        return .instant(date(day, hour: hour, minute: minute, second: second, zone: zone))
    }
}

/// Reading a short argument character by character.
private struct TextScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    var atEnd: Bool { index == characters.count }

    /// Takes `character` if it is next.
    mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }

    /// Takes a run of ASCII digits whose length is in `count`.
    mutating func digits(_ count: ClosedRange<Int>) -> Int? {
        var value = 0
        var taken = 0
        while index < characters.count, taken < count.upperBound, let digit = characters[index].asciiDigit {
            value = value * 10 + digit
            index += 1
            taken += 1
        }
        return count.contains(taken) ? value : nil
    }

    /// Takes the digits after a decimal point, as a fraction of one.
    mutating func fraction() -> Double? {
        var text = "0."
        while index < characters.count, let digit = characters[index].asciiDigit {
            text += String(digit)
            index += 1
        }
        return text.count > 2 ? Double(text) : nil
    }
}

extension Character {
    /// The value of an ASCII digit, or `nil`.
    fileprivate var asciiDigit: Int? {
        guard let ascii = asciiValue, (48...57).contains(ascii) else { return nil }
        return Int(ascii - 48)
    }
}
