import WorkoutProtocol

/// Whom a client trusts: trust on first use, as SSH and Syncthing do. The first connection
/// to an address pins the server's key fingerprint; later connections refuse a different key,
/// loudly, unless the server shows that its pinned key vouched for the new one (a rotation
/// with `workoutd rotate-key`).
///
/// A server not pinned yet is trusted when its fingerprint is the ``expectedFingerprint``
/// (given up front, or carried by an invite code), or when ``confirmNewServer`` says so
/// (an app asks its user to compare the fingerprint with the one the server printed);
/// otherwise it is refused with its fingerprint in the message. Nothing is ever sent to a
/// server before this check passes.
public struct ServerTrust: Sendable {
    /// Asked about a server not pinned yet: its address and key fingerprint; whether to trust it.
    public typealias Confirmation = @Sendable (ServerAddress, ServerFingerprint) async -> Bool

    /// Where pins are kept.
    public var knownServers: KnownServers
    /// The fingerprint the server must have if it is not pinned yet (`--fingerprint`, an invite).
    public var expectedFingerprint: ServerFingerprint?
    /// Asked about a server not pinned yet (when no fingerprint is expected); `nil` refuses it.
    public var confirmNewServer: Confirmation?

    /// Makes a policy.
    ///
    /// - Parameters:
    ///   - knownServers: The pins (in memory unless a file is given).
    ///   - expectedFingerprint: The fingerprint a server not pinned yet must have.
    ///   - confirmNewServer: Asked about a server not pinned yet.
    public init(
        knownServers: KnownServers = .inMemory(), expectedFingerprint: ServerFingerprint? = nil,
        confirmNewServer: Confirmation? = nil
    ) {
        self.knownServers = knownServers
        self.expectedFingerprint = expectedFingerprint
        self.confirmNewServer = confirmNewServer
    }

    /// Checks the key a server at `address` presented, pinning it on first use or after a
    /// vouched rotation.
    ///
    /// - Parameters:
    ///   - publicKey: The key, DER SubjectPublicKeyInfo.
    ///   - endorsements: The certificate's endorsements extension, if it has one.
    ///   - address: Where the client connected.
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`) when the server is not to be trusted.
    func check(publicKey: [UInt8], endorsements: [UInt8]?, address: ServerAddress) async throws(WorkoutError) {
        let presented = ServerFingerprint(publicKey: publicKey)
        if let pinned = try knownServers.fingerprint(for: address) {
            if pinned == presented { return }
            if let endorsements, let chain = KeyEndorsement.decode(endorsements),
                KeyEndorsement.chain(chain, leadsFrom: pinned.value, to: presented.value)
            {
                try knownServers.remember(presented, for: address)
                return
            }
            throw WorkoutError(code: .failedPrecondition, message: """
                WARNING: THE KEY OF THE WORKOUT SERVER AT \(address) HAS CHANGED, and its old key did not vouch for \
                the new one. Someone may be intercepting this connection; nothing was sent. Pinned key: \(pinned); \
                presented key: \(presented). If the server's key was really replaced (its data directory restored or \
                reinstalled), compare the presented key with `workoutd fingerprint` on the server, then remove the line \
                for \(address) from \(knownServers.path ?? "the pinned keys") and connect again.
                """)
        }
        if let expected = expectedFingerprint {
            guard expected == presented else {
                throw WorkoutError(code: .failedPrecondition, message: """
                    WARNING: the server at \(address) presented the key \(presented), not the expected \(expected); \
                    nothing was sent. Check the address, and the fingerprint against `workoutd fingerprint` on the server.
                    """)
            }
            try knownServers.remember(presented, for: address)
            return
        }
        if let confirmNewServer, await confirmNewServer(address, presented) {
            try knownServers.remember(presented, for: address)
            return
        }
        throw WorkoutError(code: .failedPrecondition, message: """
            the server at \(address) is not trusted yet: its key's fingerprint is \(presented). Compare it with \
            `workoutd fingerprint` on the server, then connect again confirming it (or give it up front).
            """)
    }
}
