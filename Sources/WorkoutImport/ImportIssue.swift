public import WorkoutClient

/// A part of an import's source that is not imported, and why: a malformed line, a value the
/// server would refuse, a kind of data the importer does not bring in.
public struct ImportIssue: Sendable, Hashable, Codable, Error, CustomStringConvertible {
    /// The line of the source file (from 1), or `nil` where the source has no lines to name
    /// (a JSON document: then ``location`` names the record).
    public var line: Int?
    /// Where in the source: `line 12`, `workouts[3]`.
    public var location: String
    /// The kind of record the part would have been, when known.
    public var kind: ImportKind?
    /// Why it is not imported, for people.
    public var reason: String

    /// An issue at a line of the source.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - kind: The record's kind, when known.
    ///   - reason: Why it is not imported.
    public init(line: Int, kind: ImportKind? = nil, reason: String) {
        self.line = line
        self.location = "line \(line)"
        self.kind = kind
        self.reason = reason
    }

    /// An issue at a place of the source that is not a line.
    ///
    /// - Parameters:
    ///   - location: Where, e.g. `workouts[3]`.
    ///   - kind: The record's kind, when known.
    ///   - reason: Why it is not imported.
    public init(location: String, kind: ImportKind? = nil, reason: String) {
        self.line = nil
        self.location = location
        self.kind = kind
        self.reason = reason
    }

    /// `line 12: durationSeconds must be between 1 and 86400 (got 324000)`.
    public var description: String { "\(location): \(reason)" }
}

/// What a source yields as it is read: a record, or a part it skips.
public enum ImportEvent: Sendable, Hashable {
    /// A record, with where it came from (`line 12`, `workouts[3]`).
    case record(ImportRecord, location: String)
    /// A part of the source that is not imported.
    case skipped(ImportIssue)
}

/// An error that stops reading a source: it cannot be opened, or is not of the format named.
public struct ImportSourceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String

    /// An error with a message.
    ///
    /// - Parameter message: What went wrong.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
