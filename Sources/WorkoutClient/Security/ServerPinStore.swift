/// Where a client keeps the key it pinned for each server address (trust on first use): one
/// fingerprint per address, as ``ServerTrust`` reads and replaces them.
///
/// ``KnownServers`` is the default: a file like SSH's `known_hosts` (or memory only, for tests).
/// An app may keep pins elsewhere, e.g. in the Keychain, by conforming to this protocol: one item
/// per address (its ``ServerAddress/description`` as the account), the fingerprint's
/// ``ServerFingerprint/description`` as the data. Pins decide whom passwords go to: store them
/// where only this app (or user) can change them.
///
/// ``ServerTrust`` calls the store while a connection is being opened (never on the main actor),
/// perhaps from several connections at once.
public protocol ServerPinStore: Sendable {
    /// The fingerprint pinned for `address`, or `nil` when it has none.
    ///
    /// - Throws: When the store cannot be read; the connection is then refused.
    func fingerprint(for address: ServerAddress) throws -> ServerFingerprint?

    /// Pins `fingerprint` for `address`, replacing what was pinned (a first use, or a rotation
    /// the pinned key vouched for).
    ///
    /// - Throws: When the store cannot be written; the connection is then refused.
    func remember(_ fingerprint: ServerFingerprint, for address: ServerAddress) throws

    /// Removes the pin of `address`, so that the next connection there is a first use again:
    /// what an app does once its member checked that the server's key was really replaced
    /// (``TrustFailure/Kind/keyChanged``). Nothing happens when it has no pin.
    ///
    /// - Throws: When the store cannot be written.
    func forget(_ address: ServerAddress) throws
}
