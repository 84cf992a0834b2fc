import Foundation

/// Record IDs shortened for tables, as `git log --oneline` shortens hashes: each ID's first
/// hex digits, ``minimumDigits`` at least and as many more as it takes for no other ID of the
/// same list to share them. `workout edit` and `workout delete` take them as they are.
enum ShortID {
    /// The fewest digits shown: 12, the whole millisecond timestamp of a time-ordered ID
    /// (UUIDv7), so records logged a moment apart (on other days, not shown in the same list)
    /// still differ in them.
    static let minimumDigits = 12

    /// The short form of each of `ids`.
    ///
    /// - Parameters:
    ///   - ids: The IDs shown together (duplicates are fine).
    ///   - minimum: The fewest digits shown: ``minimumDigits`` for records, of which a table
    ///     shows some; fewer where the list holds every ID there is (a member's sessions), so
    ///     the shortest prefix unique in it is unique everywhere.
    /// - Returns: Each ID's prefix, lower-case hex without hyphens.
    static func prefixes(_ ids: [UUID], minimum: Int = minimumDigits) -> [UUID: String] {
        let digits = Set(ids).map { (id: $0, hex: Array($0.uuidString.lowercased().filter { $0 != "-" })) }.sorted { $0.hex.lexicographicallyPrecedes($1.hex) }
        func shared(_ a: [Character], _ b: [Character]) -> Int {
            zip(a, b).prefix { $0 == $1 }.count
        }
        var result: [UUID: String] = [:]
        for (index, entry) in digits.enumerated() {
            var length = minimum
            if index > 0 { length = max(length, shared(digits[index - 1].hex, entry.hex) + 1) }
            if index + 1 < digits.count { length = max(length, shared(digits[index + 1].hex, entry.hex) + 1) }
            result[entry.id] = String(entry.hex.prefix(min(length, entry.hex.count)))
        }
        return result
    }
}
