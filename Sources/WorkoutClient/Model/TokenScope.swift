import WorkoutProtocol

/// What a device token may do (``DeviceToken/scopes``); the server checks it before every call
/// the token makes.
public enum TokenScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// Read the member's own data: the profile, the queries, the household view, the change
    /// feed and the export.
    case read
    /// Log, edit and delete the member's own records (but not import them).
    case log
    /// Import history: `Import.ImportRecords` and the server's Health Auto Export endpoint.
    case `import`
}

// MARK: Wire

extension TokenScope {
    /// Creates a scope from the wire; `nil` for `TOKEN_SCOPE_UNSPECIFIED` and for numbers this
    /// library does not know (a newer server's scopes), which a listing then leaves out.
    ///
    /// - Parameter wire: The wire value.
    init?(wire: Workout_V1_TokenScope) {
        switch wire {
        case .read: self = .read
        case .log: self = .log
        case .import: self = .import
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }

    /// This scope on the wire.
    var wire: Workout_V1_TokenScope {
        switch self {
        case .read: .read
        case .log: .log
        case .import: .import
        }
    }
}
