/// The 8 bytes each side sends first.
///
/// ```
///  0       1       2       3       4       5       6       7
/// +-------+-------+-------+-------+-------+-------+-------+-------+
/// | 0x57  | 0x4B  | 0x52  | 0x50  |  min  |  max  | reserved = 0  |
/// |  'W'  |  'K'  |  'R'  |  'P'  |version|version|     (u16)     |
/// +-------+-------+-------+-------+-------+-------+-------+-------+
/// ```
///
/// The client offers the range of versions it speaks; the server answers with
/// min = max = the chosen version, or 0/0 (a refusal, followed by a GOAWAY frame).
package struct Preface: Hashable, Sendable {
    /// The size on the wire.
    package static let size = 8
    /// "WKRP".
    package static let magic: [UInt8] = [0x57, 0x4B, 0x52, 0x50]
    private static let magicWord: UInt32 = 0x574B_5250

    /// Which side sent a preface (the rules differ).
    package enum Sender: Sendable, Hashable {
        /// A client's offer: any range with min ≤ max.
        case client
        /// A server's answer: min = max.
        case server
    }

    /// The lowest version the sender speaks (server: the chosen one, or 0).
    package var minVersion: UInt8
    /// The highest version the sender speaks (server: the chosen one, or 0).
    package var maxVersion: UInt8

    /// Makes a preface.
    ///
    /// - Parameters:
    ///   - minVersion: The lowest version.
    ///   - maxVersion: The highest version.
    package init(minVersion: UInt8, maxVersion: UInt8) {
        self.minVersion = minVersion
        self.maxVersion = maxVersion
    }

    /// A client's offer of a range of versions.
    ///
    /// - Parameter versions: The versions the client speaks.
    package init(offering versions: ClosedRange<UInt8>) {
        self.init(minVersion: versions.lowerBound, maxVersion: versions.upperBound)
    }

    /// A server's answer naming the chosen version.
    ///
    /// - Parameter version: The negotiated version.
    /// - Returns: The preface with min = max = `version`.
    package static func accepting(_ version: UInt8) -> Preface {
        Preface(minVersion: version, maxVersion: version)
    }

    /// The server's refusal: version 0/0, followed by a GOAWAY frame.
    package static let refusal = Preface(minVersion: 0, maxVersion: 0)

    /// Whether this is the refusal preface (0/0).
    package var isRefusal: Bool {
        minVersion == 0 && maxVersion == 0
    }

    /// The versions offered; `nil` if min > max.
    package var versions: ClosedRange<UInt8>? {
        minVersion <= maxVersion ? minVersion...maxVersion : nil
    }

    /// Appends the 8 bytes.
    ///
    /// - Parameter buffer: The outgoing batch.
    package func encode(into buffer: inout [UInt8]) {
        let word = UInt64(Self.magicWord) << 32 | UInt64(minVersion) << 24 | UInt64(maxVersion) << 16
        withUnsafeBytes(of: word.bigEndian) { buffer.append(contentsOf: $0) }
    }

    /// Reads a preface from the start of a buffer.
    ///
    /// A client's preface is read by a server, whose refusal repeats the error's message to
    /// the client: so each of those messages begins by naming the versions the server speaks
    /// (PROTOCOL.md 4.1), `this server speaks protocol versions 1...1; ...`.
    ///
    /// - Parameters:
    ///   - source: The received bytes.
    ///   - sender: The side that sent them.
    ///   - serverVersions: The versions the reading server speaks, named in the messages about
    ///     a client's preface.
    /// - Returns: The preface, or `nil` when fewer than 8 bytes are there (a wrong magic
    ///   throws as soon as the bytes received so far differ from it).
    /// - Throws: ``ProtocolError`` `.badMagic`, or `.invalidPreface` for a nonzero reserved
    ///   field, min > max, or a server preface with min ≠ max.
    package static func decode(
        from source: UnsafeRawBufferPointer, sentBy sender: Sender,
        serverVersions: ClosedRange<UInt8> = Handshake.supportedVersions
    ) throws(ProtocolError) -> Preface? {
        let prefix = sender == .client ? Handshake.speaks(serverVersions) + "; " : ""
        for (index, byte) in source.prefix(4).enumerated() where byte != magic[index] {
            let seen = source.prefix(4).map { hex($0) }.joined(separator: " ")
            throw ProtocolError(.badMagic, prefix + "bad preface magic \(seen), expected 57 4B 52 50 (\"WKRP\")")
        }
        guard source.count >= size else { return nil }
        let preface = Preface(minVersion: source[4], maxVersion: source[5])
        if source[6] != 0 || source[7] != 0 {
            throw ProtocolError(
                .invalidPreface, prefix + "preface reserved bytes are \(hex(source[6])) \(hex(source[7])), must be 00 00")
        }
        switch sender {
        case .client where preface.minVersion > preface.maxVersion:
            throw Handshake.invertedRange(preface, serverVersions: serverVersions)
        case .server where preface.minVersion != preface.maxVersion:
            throw ProtocolError(
                .invalidPreface,
                "server preface names versions \(preface.minVersion)...\(preface.maxVersion), must name one")
        default:
            return preface
        }
    }
}
