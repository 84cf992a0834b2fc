import WorkoutProtocol

/// Whom a client trusts: trust on first use, as SSH and Syncthing do. The first connection
/// to an address pins the server's key fingerprint; later connections refuse a different key
/// unless the server shows that its pinned key vouched for the new one (a rotation with
/// `workoutd rotate-key`).
///
/// A server not pinned yet is trusted when its fingerprint is the ``expectedFingerprint``
/// (given up front, or carried by an invite code), or when ``confirmNewServer`` says so
/// (an app asks its user to compare the fingerprint with the one the server printed);
/// otherwise it is refused with a ``TrustFailure`` of kind ``TrustFailure/Kind/notTrustedYet``
/// that carries its fingerprint. Nothing is ever sent to a server before this check passes.
///
/// Keep the pins in a file (``KnownServers/init(path:)``) or a store of the app's own
/// (``ServerPinStore``): pins in memory, the default, are gone when the app quits, and a server
/// whose key was rotated meanwhile is then refused at the next launch.
///
/// ```swift
/// let trust = ServerTrust(
///     knownServers: KnownServers(path: pinFile),
///     expectedFingerprint: ServerFingerprint(fingerprintFromServer),
///     confirmNewServer: { address, fingerprint in await askMember(address, fingerprint) })
/// ```
public struct ServerTrust: Sendable {
    /// Asked about a server not pinned yet: its address and key fingerprint; whether to trust it.
    public typealias Confirmation = @Sendable (ServerAddress, ServerFingerprint) async -> Bool

    /// Where pins are kept.
    public var knownServers: any ServerPinStore
    /// The fingerprint the server must have if it is not pinned yet (`--fingerprint`, an invite).
    /// A server whose key this one vouched for (a later `workoutd rotate-key`) is accepted too.
    public var expectedFingerprint: ServerFingerprint?
    /// Asked about a server not pinned yet (when no fingerprint is expected); `nil` refuses it.
    public var confirmNewServer: Confirmation?

    /// Makes a policy.
    ///
    /// - Parameters:
    ///   - knownServers: The pins: a ``KnownServers`` file, or a store of the app's own
    ///     (in memory only, for this process's life, unless given).
    ///   - expectedFingerprint: The fingerprint a server not pinned yet must have.
    ///   - confirmNewServer: Asked about a server not pinned yet.
    public init(
        knownServers: any ServerPinStore = KnownServers.inMemory(), expectedFingerprint: ServerFingerprint? = nil,
        confirmNewServer: Confirmation? = nil
    ) {
        self.knownServers = knownServers
        self.expectedFingerprint = expectedFingerprint
        self.confirmNewServer = confirmNewServer
    }

    /// What to do with a presented key, decided from the pins alone.
    enum Verdict: Equatable {
        /// The pinned key: go on.
        case accept
        /// Trusted, and to be pinned: first use with the expected key, or a vouched rotation.
        case pin
        /// Not pinned and nothing expected: ask the app.
        case ask
        /// Refused.
        case refuse(TrustFailure)
    }

    /// Decides about the key a server at `address` presented (a pure function of its inputs).
    ///
    /// - Parameters:
    ///   - presented: The fingerprint of the key the server proved it holds.
    ///   - endorsements: Its certificate's endorsement extension, if it has one.
    ///   - pinned: The fingerprint pinned for the address.
    ///   - expected: The fingerprint a server not pinned yet must have.
    ///   - address: The server's address.
    /// - Returns: The verdict.
    static func verdict(
        presented: ServerFingerprint, endorsements: [UInt8]?, pinned: ServerFingerprint?, expected: ServerFingerprint?,
        address: ServerAddress
    ) -> Verdict {
        if let pinned {
            if pinned == presented { return .accept }
            switch endorsement(endorsements, from: pinned, to: presented) {
            case .vouched: return .pin
            case .invalid: return .refuse(TrustFailure(.endorsementInvalid, address: address, presented: presented, pinned: pinned))
            case .absent: return .refuse(TrustFailure(.keyChanged, address: address, presented: presented, pinned: pinned))
            }
        }
        if let expected {
            if expected == presented || endorsement(endorsements, from: expected, to: presented) == .vouched { return .pin }
            return .refuse(TrustFailure(.unexpectedKey, address: address, presented: presented, expected: expected))
        }
        return .ask
    }

    /// What a certificate's endorsements say about the way from `start` to `presented`.
    enum Endorsement: Equatable {
        /// They lead there, every link signed by the key before it.
        case vouched
        /// None leads there (none at all, or a chain that goes elsewhere): a changed key.
        case absent
        /// The extension is malformed, or a link on the way has a signature that does not hold.
        case invalid
    }

    /// Follows the endorsements from `start` (the pin) to `presented`, as PROTOCOL.md §3.3 says:
    /// the first endorsement whose old key is the current one, its signature valid, 1 to 16 steps.
    static func endorsement(_ extensionValue: [UInt8]?, from start: ServerFingerprint, to presented: ServerFingerprint) -> Endorsement {
        guard let extensionValue else { return .absent }
        guard let chain = KeyEndorsement.decode(extensionValue) else { return .invalid }
        var current = start.value
        var steps = 0
        while current != presented.value {
            guard steps < KeyEndorsement.maxCount, let link = chain.first(where: { $0.oldFingerprint == current }) else {
                return .absent
            }
            guard link.isValid else { return .invalid }
            current = link.newKey
            steps += 1
        }
        return steps > 0 ? .vouched : .absent
    }

    /// Checks the key a server at `address` presented, pinning it on first use or after a
    /// vouched rotation.
    ///
    /// - Parameters:
    ///   - publicKey: The key, DER SubjectPublicKeyInfo.
    ///   - endorsements: The certificate's endorsements extension, if it has one.
    ///   - address: Where the client connected.
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`) with its ``WorkoutError/trust`` when
    ///   the server is not to be trusted, or when the pins cannot be read or written.
    func check(publicKey: [UInt8], endorsements: [UInt8]?, address: ServerAddress) async throws(WorkoutError) {
        let presented = ServerFingerprint(publicKey: publicKey)
        let pinned = try pinStore { try knownServers.fingerprint(for: address) }
        switch Self.verdict(
            presented: presented, endorsements: endorsements, pinned: pinned, expected: expectedFingerprint, address: address)
        {
        case .accept:
            return
        case .pin:
            try pinStore { try knownServers.remember(presented, for: address) }
        case .ask:
            guard let confirmNewServer, await confirmNewServer(address, presented) else {
                throw WorkoutError(TrustFailure(.notTrustedYet, address: address, presented: presented))
            }
            try pinStore { try knownServers.remember(presented, for: address) }
        case .refuse(let failure):
            throw WorkoutError(failure)
        }
    }

    /// Runs `body` on the pin store; an error that is not a ``WorkoutError`` (an app's store's)
    /// becomes one (`FAILED_PRECONDITION`), so that the connection is refused with it.
    private func pinStore<R>(_ body: () throws -> R) throws(WorkoutError) -> R {
        do {
            return try body()
        } catch let error as WorkoutError {
            throw error
        } catch {
            throw WorkoutError(code: .failedPrecondition, message: "the pinned server keys cannot be used: \(error)")
        }
    }
}
