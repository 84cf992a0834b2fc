/// Why the client refused a server, or refused to send something to it: what a UI needs to
/// show the member, in data rather than in a sentence. Nothing was sent to the server.
///
/// A ``WorkoutError`` carries it as ``WorkoutError/trust``, with the code
/// `FAILED_PRECONDITION` (`INVALID_ARGUMENT` for ``Kind/inviteFingerprintInvalid``):
///
/// ```swift
/// } catch let error where error.trust?.kind == .notTrustedYet {
///     // Show error.trust!.presented and ask the member to compare it with the server's.
/// }
/// ```
///
/// Which properties a failure has depends on its ``kind``; each kind says which.
public struct TrustFailure: Hashable, Sendable {
    /// Which failure it is. New kinds may come; an app's `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String {
            case keyChanged = "key changed"
            case endorsementInvalid = "key endorsement invalid"
            case notTrustedYet = "not trusted yet"
            case unexpectedKey = "unexpected key"
            case inviteKeyMismatch = "invite key mismatch"
            case inviteFingerprintInvalid = "invite fingerprint invalid"
            case plainTCPRefused = "plain TCP refused"
            case serverSpeaksPlainTCP = "server speaks plain TCP"
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// The address is pinned to another key, and the pinned key did not vouch for the
        /// presented one: someone may be intercepting the connection, or the server's key was
        /// replaced. Has ``TrustFailure/pinned`` and ``TrustFailure/presented``.
        public static let keyChanged = Kind(.keyChanged)
        /// The presented key's certificate carries a key endorsement (a `workoutd rotate-key`)
        /// that is malformed, or whose signature by the pinned key is not valid; treat it as a
        /// changed key. Has ``TrustFailure/pinned`` and ``TrustFailure/presented``.
        public static let endorsementInvalid = Kind(.endorsementInvalid)
        /// A server not pinned yet, with no fingerprint expected, that the app did not confirm
        /// (``ServerTrust/confirmNewServer`` missing or answering `false`): show
        /// ``TrustFailure/presented`` and ask the member to compare it with `workoutd fingerprint`.
        public static let notTrustedYet = Kind(.notTrustedYet)
        /// A server not pinned yet whose key is not ``ServerTrust/expectedFingerprint``. Has
        /// ``TrustFailure/expected`` and ``TrustFailure/presented``.
        public static let unexpectedKey = Kind(.unexpectedKey)
        /// An invite names another key than the one the server proved it holds
        /// (``TrustFailure/expected``, ``TrustFailure/presented``), or the connection is plain
        /// TCP, where no key is proved (``TrustFailure/presented`` is `nil`).
        public static let inviteKeyMismatch = Kind(.inviteKeyMismatch)
        /// An invite's part after `@` is not a fingerprint (``TrustFailure/text``); nothing was
        /// sent, nothing connected.
        public static let inviteFingerprintInvalid = Kind(.inviteFingerprintInvalid)
        /// A password would go over plain TCP to a server beyond this machine (see
        /// ``TransportSecurity/plainTCP(allowsPasswords:)``).
        public static let plainTCPRefused = Kind(.plainTCPRefused)
        /// The client asked for TLS, and the server answered in the protocol's clear text: it
        /// listens for plain TCP.
        public static let serverSpeaksPlainTCP = Kind(.serverSpeaksPlainTCP)

        /// The kind in words, e.g. `key changed`.
        public var description: String { value.rawValue }
    }

    /// Which failure it is.
    public var kind: Kind
    /// The server's address as the client was configured with it.
    public var address: ServerAddress
    /// The fingerprint of the key the server proved it holds in the TLS handshake.
    public var presented: ServerFingerprint?
    /// The fingerprint pinned for ``address`` (``Kind/keyChanged``, ``Kind/endorsementInvalid``).
    public var pinned: ServerFingerprint?
    /// The fingerprint the server had to have: given up front (``Kind/unexpectedKey``) or
    /// carried by an invite (``Kind/inviteKeyMismatch``).
    public var expected: ServerFingerprint?
    /// What was read where a fingerprint was due (``Kind/inviteFingerprintInvalid``), or the
    /// call that would have carried the password (``Kind/plainTCPRefused``).
    public var text: String?

    /// Makes a failure; an app needs one only for a pin store or tests of its own.
    ///
    /// - Parameters:
    ///   - kind: Which failure.
    ///   - address: The server's address.
    ///   - presented: The key the server proved it holds.
    ///   - pinned: The key pinned for the address.
    ///   - expected: The key the server had to have.
    ///   - text: What was read where a fingerprint was due, or the call that would have carried a password.
    public init(
        _ kind: Kind, address: ServerAddress, presented: ServerFingerprint? = nil, pinned: ServerFingerprint? = nil,
        expected: ServerFingerprint? = nil, text: String? = nil
    ) {
        self.kind = kind
        self.address = address
        self.presented = presented
        self.pinned = pinned
        self.expected = expected
        self.text = text
    }

    /// What happened, as ``WorkoutError/message`` says it.
    var message: String {
        let presented = presented.map(\.description) ?? "none"
        let pinned = pinned.map(\.description) ?? "none"
        let expected = expected.map(\.description) ?? "none"
        switch kind {
        case .keyChanged:
            return "the key of the server at \(address) has changed, and the pinned key did not vouch for the new one; "
                + "someone may be intercepting the connection. Nothing was sent. Pinned key: \(pinned); presented key: \(presented)"
        case .endorsementInvalid:
            return "the server at \(address) presented a new key with a key endorsement that does not hold (malformed, "
                + "or not signed by the pinned key); someone may be intercepting the connection. Nothing was sent. "
                + "Pinned key: \(pinned); presented key: \(presented)"
        case .notTrustedYet:
            return "the server at \(address) is not trusted yet: its key's fingerprint is \(presented). Nothing was sent"
        case .unexpectedKey:
            return "the server at \(address) presented the key \(presented), not the expected \(expected). Nothing was sent"
        case .inviteKeyMismatch where self.presented == nil:
            return "the invite names the server key \(expected), but the connection to \(address) is plain TCP, so the "
                + "server's key cannot be checked. Nothing was sent"
        case .inviteKeyMismatch:
            return "the invite names the server key \(expected), but the server at \(address) proved it holds the key "
                + "\(presented): this is not the server that made the invite, or its key changed. Nothing was sent"
        case .inviteFingerprintInvalid:
            return "the invite's part after \"@\" (\"\(text ?? "")\") is not a server fingerprint (52 base32 characters, "
                + "in groups of 4 with dashes). Nothing was sent"
        case .plainTCPRefused:
            return "refusing to send a password\(text.map { " (\($0))" } ?? "") over plain TCP to \(address): anyone on "
                + "the network could read it. Nothing was sent"
        case .serverSpeaksPlainTCP:
            return "the server at \(address) speaks plain TCP, not TLS"
        default:
            return "the server at \(address) is not trusted (\(kind))"
        }
    }

    /// What the member (or the app) can do about it, as ``WorkoutError/recoverySuggestion`` says it:
    /// in the member's words, naming no API (the app maps ``kind`` to its own actions).
    var recoverySuggestion: String {
        switch kind {
        case .keyChanged, .endorsementInvalid:
            return "If the server's key was really replaced (its data directory restored or reinstalled), compare the "
                + "presented key with what `workoutd fingerprint` prints on the server; only if they match, forget this "
                + "device's pin for \(address) and connect again."
        case .notTrustedYet:
            return "Compare the fingerprint with what `workoutd fingerprint` prints on the server, and trust the server "
                + "only if they match."
        case .unexpectedKey:
            return "Check the address, and the expected fingerprint against what `workoutd fingerprint` prints on the server."
        case .inviteKeyMismatch:
            return "Ask the household's admin for a new invite, and check that the address is the household's server "
                + "(connect over TLS)."
        case .inviteFingerprintInvalid:
            return "Check the invite against the one the admin gave, or enter the code without the part after \"@\"."
        case .plainTCPRefused:
            return "Connect with TLS; send passwords over plain TCP only to a server behind the household's own TLS proxy."
        case .serverSpeaksPlainTCP:
            return "Connect without TLS only if the server runs on this machine or behind the household's own TLS proxy; "
                + "otherwise start the server with TLS."
        default:
            return "Check the server's fingerprint with the household's admin."
        }
    }
}

extension WorkoutError {
    /// A refusal for `failure`: `FAILED_PRECONDITION` (`INVALID_ARGUMENT` for an invite's
    /// fingerprint that does not parse), its message made from its data.
    init(_ failure: TrustFailure) {
        self.init(
            code: failure.kind == .inviteFingerprintInvalid ? .invalidArgument : .failedPrecondition, message: failure.message)
        trust = failure
    }
}
