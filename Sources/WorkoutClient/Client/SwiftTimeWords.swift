import Foundation

/// The wire's times in a message, said as a Swift app deals in them: durations in seconds
/// (`in 1500 ms` → `in 1.5 seconds`) and instants as dates (`1767225600000` →
/// `2026-01-01T00:00:00Z`), since a `Date` or a `Duration`, not milliseconds, is what the app
/// passed.
enum SwiftTimeWords {
    /// `text` with its milliseconds said in seconds and dates.
    static func rewriting(_ text: String) -> String {
        guard text.contains(" ms") || text.contains("milliseconds") else { return text }
        var result = text
        // An instant the server wrote twice (milliseconds, then the date in parentheses): the date.
        result = result.replacing(/(\d{12,13}) \((\d{4}-\d\d-\d\dT[0-9:.]+Z)\)/) { String($0.output.2) }
        // Other instants: the date.
        if result.contains("milliseconds since 1970") {
            result = result.replacing(", in milliseconds since 1970", with: "")
            result = result.replacing(/\b\d{12,13}\b/) { match in
                guard let milliseconds = Int64(match.output) else { return String(match.output) }
                return date(milliseconds)
            }
        }
        // Durations.
        result = result.replacing(/\b(\d+) ms\b/) { match in
            guard let milliseconds = Int64(match.output.1) else { return String(match.output.0) }
            return seconds(milliseconds)
        }
        return result
    }

    /// `2026-01-01T00:00:00Z` (with milliseconds when it has them).
    private static func date(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        if milliseconds % 1_000 != 0 { formatter.formatOptions.insert(.withFractionalSeconds) }
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1_000))
    }

    /// `1 second`, `1.5 seconds`, `0.25 seconds`.
    private static func seconds(_ milliseconds: Int64) -> String {
        let whole = milliseconds / 1_000
        var fraction = String(milliseconds % 1_000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let number = fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
        return number + (milliseconds == 1_000 ? " second" : " seconds")
    }
}
