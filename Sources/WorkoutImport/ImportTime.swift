import Foundation
import WorkoutClient

/// The times the CSV formats take: ISO 8601 with `Z` or an offset (with or without
/// fractional seconds), or a wall-clock time `YYYY-MM-DD HH:MM[:SS]` (also with `T`) in a
/// given zone.
enum ImportTime {
    /// The instant `text` names, or `nil`.
    ///
    /// - Parameters:
    ///   - text: The time.
    ///   - zone: The zone of a wall-clock time without an offset.
    static func parse(_ text: String, zone: TimeZone) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            // To the millisecond, as written (the parse may land a hair below it).
            return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
        }
        // A wall-clock time in `zone`.
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2, let day = LocalDate(String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":").map { Int($0) }
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }) else { return nil }
        let hour = clock[0]!, minute = clock[1]!, second = clock.count == 3 ? clock[2]! : 0
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second))
    }
}
