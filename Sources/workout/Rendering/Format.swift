import Foundation
import WorkoutClient

/// How values read in human output: numbers without needless decimals, units, times in
/// the local zone.
enum Format {
    /// A number with at most `decimals` decimals and no trailing zeros: `72.4`, `350`, `0.5`.
    static func number(_ value: Double, decimals: Int = 1) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = String(format: "%.\(max(0, decimals))f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A whole number with thousands separated by commas: `8,500`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// Kilocalories, rounded: `350 kcal`.
    static func kcal(_ value: Double) -> String {
        "\(grouped(Int(value.rounded()))) kcal"
    }

    /// Grams, to one decimal: `12.5 g`.
    static func grams(_ value: Double) -> String {
        "\(number(value)) g"
    }

    /// Kilograms, to one decimal: `72.4 kg`.
    static func kilograms(_ value: Double) -> String {
        "\(number(value)) kg"
    }

    /// A duration: `45 min`, `1 h 30 min`, `2 h`, `40 s`.
    static func duration(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }

    /// `1 day`, `3 days`.
    static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural ?? singular + "s")"
    }

    /// A date and time in `zone`: `2025-06-01 07:30`.
    static func dateTime(_ date: Date, in zone: TimeZone) -> String {
        formatted(date, "yyyy-MM-dd HH:mm", zone)
    }

    /// A time of day in `zone`: `07:30`.
    static func clock(_ date: Date, in zone: TimeZone) -> String {
        formatted(date, "HH:mm", zone)
    }

    /// A day in `zone`: `2025-06-01`.
    static func day(_ date: Date, in zone: TimeZone) -> String {
        LocalDate(date, in: zone).description
    }

    /// A day with its weekday: `Sunday 2025-06-01`.
    static func longDay(_ day: LocalDate) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) else {
            return day.description
        }
        return formatted(date, "EEEE", calendar.timeZone) + " " + day.description
    }

    /// An instant in ISO 8601, UTC, to the millisecond the wire keeps: `2025-06-01T05:30:00Z`,
    /// or `2025-06-01T05:30:00.123Z` when it has milliseconds (rounded as the wire rounds, so
    /// reading it back gives the same wire time).
    static func instant(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.toNearestOrAwayFromZero))
        let (seconds, fraction) = (milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000, ((milliseconds % 1000) + 1000) % 1000)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let whole = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
        guard fraction != 0 else { return whole }
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// A UUID as lowercase text.
    static func id(_ id: UUID) -> String {
        id.uuidString.lowercased()
    }

    private static func formatted(_ date: Date, _ pattern: String, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
