/// The opening of a connection: prefaces, version negotiation and the refusal.
///
/// ```
/// client                                   server
///   | preface "WKRP" min max 0 0  ------->   |
///   | HELLO (ClientHello)          ------->  |   (may follow at once)
///   |   <-------  preface "WKRP" v v 0 0     |   v = highest common version
///   |   <-------  HELLO (ServerHello)        |
///   |            ... frames ...              |
///
/// refusal (bad magic, reserved bytes, min > max, no common version):
///   |   <-------  preface "WKRP" 0 0 0 0     |
///   |   <-------  GOAWAY call 0, status      |   then the server closes
/// ```
///
/// Every refusal's message begins by naming the versions the server speaks, so a person
/// reading a client's error knows what to upgrade (PROTOCOL.md 4.1):
/// `this server speaks protocol versions 1...1; the client offered 2...3`.
package enum Handshake {
    /// The protocol versions this library speaks.
    package static let supportedVersions: ClosedRange<UInt8> = 1...1
    /// The payload limit in both directions until the hello exchange completes: 64 KiB.
    package static let preHelloMaxFrameSize = 65_536

    /// Chooses the highest version both sides speak.
    ///
    /// - Parameters:
    ///   - offered: The versions the client offers.
    ///   - supported: The versions the server speaks.
    /// - Returns: The chosen version.
    /// - Throws: ``ProtocolError`` `.unsupportedVersion` (FAILED_PRECONDITION) naming both
    ///   ranges, e.g. "this server speaks protocol versions 1...1; the client offered 2...3".
    package static func negotiateVersion(
        offered: ClosedRange<UInt8>,
        supported: ClosedRange<UInt8> = supportedVersions
    ) throws(ProtocolError) -> UInt8 {
        let low = max(offered.lowerBound, supported.lowerBound)
        let high = min(offered.upperBound, supported.upperBound)
        guard low <= high, high > 0 else {
            throw ProtocolError(
                .unsupportedVersion,
                speaks(supported) + "; the client offered \(offered.lowerBound)...\(offered.upperBound)")
        }
        return high
    }

    /// The server's answer to a client's preface: the accepting preface, or the error to refuse with.
    ///
    /// - Parameters:
    ///   - clientPreface: The preface the client sent.
    ///   - supported: The versions the server speaks.
    /// - Returns: `.success` with the preface to send, or `.failure` with the error for
    ///   ``writeRefusal(_:goAwayPayload:into:)``.
    package static func answer(
        to clientPreface: Preface,
        supported: ClosedRange<UInt8> = supportedVersions
    ) -> Result<Preface, ProtocolError> {
        guard let offered = clientPreface.versions else {
            return .failure(invertedRange(clientPreface, serverVersions: supported))
        }
        do {
            return .success(.accepting(try negotiateVersion(offered: offered, supported: supported)))
        } catch {
            return .failure(error)
        }
    }

    /// How every refusal's message begins: `this server speaks protocol versions 1...1`.
    ///
    /// - Parameter supported: The versions the server speaks.
    /// - Returns: The phrase, versions written `<min>...<max>`.
    package static func speaks(_ supported: ClosedRange<UInt8>) -> String {
        "this server speaks protocol versions \(supported.lowerBound)...\(supported.upperBound)"
    }

    /// The refusal of a client preface whose min version is above its max.
    ///
    /// - Parameters:
    ///   - preface: The client's preface.
    ///   - serverVersions: The versions the server speaks.
    /// - Returns: ``ProtocolError`` `.invalidPreface` (INVALID_ARGUMENT), e.g. "this server
    ///   speaks protocol versions 1...1; the client offered 3...1, min above max".
    static func invertedRange(_ preface: Preface, serverVersions: ClosedRange<UInt8>) -> ProtocolError {
        ProtocolError(
            .invalidPreface,
            speaks(serverVersions) + "; the client offered \(preface.minVersion)...\(preface.maxVersion), min above max")
    }

    /// Appends the refusal: the 0/0 preface, then a GOAWAY frame with call id 0 and the
    /// error's status.
    ///
    /// - Parameters:
    ///   - error: Why the connection is refused (its status goes in the GOAWAY header).
    ///   - goAwayPayload: The encoded RpcStatus carrying `error.message`; the framing
    ///     layer does not encode protobuf itself.
    ///   - buffer: The outgoing batch.
    package static func writeRefusal(_ error: ProtocolError, goAwayPayload: [UInt8], into buffer: inout [UInt8]) {
        Preface.refusal.encode(into: &buffer)
        Frame(type: .goAway, callID: 0, code: error.status.rawValue, body: goAwayPayload).encode(into: &buffer)
    }
}
