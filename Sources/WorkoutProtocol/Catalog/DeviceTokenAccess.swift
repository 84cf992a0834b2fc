/// Which device tokens may call a method (PROTOCOL.md 17, "Device tokens"), as the catalog
/// declares it for every method. A session from a password may call whatever its member may;
/// a device token only what this allows.
package enum DeviceTokenAccess: Sendable, Hashable {
    /// Every device token, a signed one too: the server's own description.
    case anyToken
    /// Every unsigned device token: its own session (Resume binds it, Logout revokes it).
    case ownSession
    /// Unsigned tokens holding this scope.
    case scope(Workout_V1_TokenScope)
    /// The ingest endpoints: tokens holding `import`, signed ones too (their posts carry the
    /// signature).
    case signedPost
    /// No device token: sessions, tokens, the profile, the account, passwords, `Admin.*`.
    case none

    /// Whether a device token holding `scopes` (signed or not) may call the method.
    package func allows(scopes: Set<Workout_V1_TokenScope>, signed: Bool) -> Bool {
        switch self {
        case .anyToken: true
        case .ownSession: !signed
        case .scope(let scope): !signed && scopes.contains(scope)
        case .signedPost: scopes.contains(.import)
        case .none: false
        }
    }

    /// Its name in `Protocol/catalog.json`: `any`, `own_session`, `read`, `log`, `import`,
    /// `signed_post`, `none`.
    package var name: String {
        switch self {
        case .anyToken: "any"
        case .ownSession: "own_session"
        case .scope(let scope): scope.name
        case .signedPost: "signed_post"
        case .none: "none"
        }
    }
}

extension Workout_V1_TokenScope {
    /// The scope's name as people write it: `read`, `log`, `import`.
    package var name: String {
        switch self {
        case .read: "read"
        case .log: "log"
        case .import: "import"
        default: "unknown"
        }
    }
}
