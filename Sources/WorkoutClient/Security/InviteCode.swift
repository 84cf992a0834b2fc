/// An invite code as an admin hands it out: the code itself, and optionally the fingerprint of
/// the server's key after an `@` (`7KQ2-M9XD-4HPA-W3RT@BDKFBXMF…CZCQ`), so that the new member's
/// device pins the right server without anyone comparing fingerprints by eye.
///
/// An app passes what the member typed or scanned, whole, to
/// ``WorkoutClient/register(inviteCode:member:password:initialWeightEntryID:)``: a server not
/// pinned yet whose key has the invite's fingerprint is trusted and pinned then (no confirmation
/// is asked), and only the code is sent, only once the connection's server proved it holds that
/// key. A server pinned already must still be the pinned one (or one its key vouched for): an
/// invite never overrides a pin. Parse it first (``init(_:)``) to show the member what it names.
public struct InviteCode: Hashable, Sendable, CustomStringConvertible {
    /// The code the server checks.
    public var code: String
    /// The fingerprint of the server's key, when the invite carries it.
    public var serverFingerprint: ServerFingerprint?

    /// An invite from its parts.
    public init(code: String, serverFingerprint: ServerFingerprint?) {
        self.code = code
        self.serverFingerprint = serverFingerprint
    }

    /// Parses `CODE` or `CODE@FINGERPRINT`; `nil` when the part after `@` is not a fingerprint.
    public init?(_ text: String) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        code = parts[0].trimmingSpaces()
        if parts.count == 2 {
            guard let fingerprint = ServerFingerprint(String(parts[1].trimmingSpaces())) else { return nil }
            serverFingerprint = fingerprint
        } else {
            serverFingerprint = nil
        }
    }

    /// `CODE@FINGERPRINT` (the fingerprint without dashes), or `CODE`.
    public var description: String {
        guard let serverFingerprint else { return code }
        return code + "@" + serverFingerprint.description.replacingDashes()
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension String {
    fileprivate func replacingDashes() -> String {
        String(filter { $0 != "-" })
    }
}
