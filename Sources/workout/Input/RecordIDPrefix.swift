import ArgumentParser
import Foundation

/// A record's ID as given on the command line: the whole UUID as `history --json` or
/// `today --json` prints it (any case, with or without hyphens), or its first or last 4 or
/// more hex digits, which must then match exactly one of the member's records of the kind
/// meant. A time-ordered ID's first digits are its time, shared by records made the same hour;
/// its last digits are random, so a few of them tell records apart.
struct RecordIDPrefix: Sendable, Equatable, CustomStringConvertible {
    /// The fewest hex digits accepted.
    static let minimumDigits = 4

    /// The hex digits given, lower-case, without hyphens (4 through 32 of them).
    let digits: String

    /// What the user typed, for messages.
    let description: String

    /// Parses a record's ID or an ID's prefix.
    ///
    /// - Parameter text: What the user typed.
    /// - Throws: `ValidationError` for anything but 4 to 32 hex digits (hyphens aside).
    init(parsing text: String) throws(ValidationError) {
        try self.init(parsing: text, listing: "`workout history --json` or `workout today --json`")
    }

    /// Parses an ID or an ID's prefix.
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - listing: What prints the IDs meant, for the message (`workout history --json` or
    ///     `workout today --json` for records; `workout sessions` for sessions).
    /// - Throws: `ValidationError` for anything but 4 to 32 hex digits (hyphens aside).
    init(parsing text: String, listing: String) throws(ValidationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.lowercased().filter { $0 != "-" }
        guard (Self.minimumDigits...32).contains(digits.count), digits.allSatisfy(\.isHexDigit) else {
            throw ValidationError(
                "expected an ID as \(listing) prints it, or its first or last \(Self.minimumDigits) or more hex digits, e.g. 3d4e5f6a7b")
        }
        self.digits = digits
        self.description = trimmed
    }

    /// The whole ID, when all 32 digits were given.
    var wholeID: UUID? {
        guard digits.count == 32 else { return nil }
        let characters = Array(digits)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return UUID(uuidString: groups.joined(separator: "-"))
    }

    /// Whether `id` starts or ends with these digits.
    func matches(_ id: UUID) -> Bool {
        let hex = id.uuidString.lowercased().filter { $0 != "-" }
        return hex.hasPrefix(digits) || hex.hasSuffix(digits)
    }

    /// The one item of `items` whose ID starts or ends with these digits.
    ///
    /// - Parameters:
    ///   - noun: What the items are, for the messages: "no session of yours" (`none`) and
    ///     "sessions'" (`plural`).
    ///   - listing: The command that lists them, e.g. "`workout sessions`".
    /// - Throws: ``CLIError`` not found (exit 66) when none matches, usage (exit 64) when
    ///   several do, naming them.
    func unique<Item>(
        in items: [Item], id: (Item) -> UUID, none: String, plural: String, listing: String
    ) throws(CLIError) -> Item {
        let matching = items.filter { matches(id($0)) }
        guard let target = matching.first else {
            throw CLIError(.notFound, "not found: \(none) has an ID that starts or ends with \"\(self)\"; \(listing) lists them")
        }
        guard matching.count == 1 else {
            let ids = matching.map { Format.id(id($0)) }.joined(separator: ", ")
            throw CLIError(.usage, "\"\(self)\" starts or ends \(matching.count) \(plural) IDs (\(ids)); give more digits")
        }
        return target
    }
}
