/// What the key check reads of an X.509 certificate (RFC 5280 §4.1), found by walking its DER:
/// the `subjectPublicKeyInfo` exactly as the certificate carries it, and the extensions' values.
/// Nothing is verified: the server's certificate is self-signed, and only its key is pinned.
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
/// TBSCertificate ::= SEQUENCE {
///     version [0] EXPLICIT OPTIONAL, serialNumber INTEGER, signature SEQUENCE,
///     issuer SEQUENCE, validity SEQUENCE, subject SEQUENCE, subjectPublicKeyInfo SEQUENCE,
///     issuerUniqueID [1] OPTIONAL, subjectUniqueID [2] OPTIONAL, extensions [3] EXPLICIT OPTIONAL }
/// Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }
/// ```
struct CertificateFields {
    /// The `subjectPublicKeyInfo`, DER (tag and length included).
    let subjectPublicKeyInfo: [UInt8]
    /// Each extension's `extnID` (the OID's content octets) and `extnValue`'s content.
    private let extensions: [(id: [UInt8], value: [UInt8])]

    /// Reads `der`; `nil` when it is not a certificate's DER.
    init?(der: [UInt8]) {
        var reader = DERReader(der[...])
        guard var certificate = reader.read(tag: 0x30).map(DERReader.init),
            var tbs = certificate.read(tag: 0x30).map(DERReader.init)
        else { return nil }
        _ = tbs.read(tag: 0xA0)  // version, when not v1
        guard tbs.read(tag: 0x02) != nil else { return nil }  // serialNumber
        for _ in 0..<4 {  // signature, issuer, validity, subject
            guard tbs.read(tag: 0x30) != nil else { return nil }
        }
        guard let spki = tbs.readWhole(tag: 0x30) else { return nil }
        subjectPublicKeyInfo = Array(spki)
        _ = tbs.read(tag: 0x81)
        _ = tbs.read(tag: 0x82)
        var found: [(id: [UInt8], value: [UInt8])] = []
        if let wrapped = tbs.read(tag: 0xA3) {
            var outer = DERReader(wrapped)
            guard var list = outer.read(tag: 0x30).map(DERReader.init) else { return nil }
            while !list.isAtEnd {
                guard var item = list.read(tag: 0x30).map(DERReader.init), let id = item.read(tag: 0x06) else { return nil }
                _ = item.read(tag: 0x01)
                guard let value = item.read(tag: 0x04) else { return nil }
                found.append((Array(id), Array(value)))
            }
        }
        extensions = found
    }

    /// The content of `extnValue` of the extension `oid` (dotted, e.g. `2.25.1719476253412847629`).
    func extensionValue(oid: String) -> [UInt8]? {
        guard let encoded = Self.encode(oid: oid) else { return nil }
        return extensions.first { $0.id == encoded }?.value
    }

    /// The content octets of an OBJECT IDENTIFIER (X.690 §8.19): the first two arcs as
    /// 40 × first + second, then each arc in base 128, high bit set on all but its last byte.
    static func encode(oid: String) -> [UInt8]? {
        let arcs = oid.split(separator: ".").map { UInt64($0) }
        guard arcs.count >= 2, arcs.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = arcs.map { $0! }
        guard numbers[0] <= 2, numbers[1] <= UInt64.max - 80 else { return nil }
        var bytes: [UInt8] = []
        for arc in [numbers[0] * 40 + numbers[1]] + numbers.dropFirst(2) {
            var groups: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                groups.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes += groups.reversed()
        }
        return bytes
    }
}

/// Reads DER tag-length-value items one after the other (definite lengths of up to 4 bytes).
private struct DERReader {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        rest = bytes
    }

    var isAtEnd: Bool { rest.isEmpty }

    /// The content of the next item when its tag is `tag` (then it is read); else `nil`.
    mutating func read(tag: UInt8) -> ArraySlice<UInt8>? {
        guard let (header, length) = peek(tag: tag) else { return nil }
        let content = rest.dropFirst(header).prefix(length)
        rest = rest.dropFirst(header + length)
        return content
    }

    /// The next item whole (tag and length included) when its tag is `tag`; else `nil`.
    mutating func readWhole(tag: UInt8) -> ArraySlice<UInt8>? {
        guard let (header, length) = peek(tag: tag) else { return nil }
        let whole = rest.prefix(header + length)
        rest = rest.dropFirst(header + length)
        return whole
    }

    /// The size of the next item's header and content, when its tag is `tag` and it is whole.
    private func peek(tag: UInt8) -> (header: Int, length: Int)? {
        guard rest.count >= 2, rest.first == tag else { return nil }
        let first = rest[rest.startIndex + 1]
        var header = 2
        var length = Int(first)
        if first & 0x80 != 0 {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), rest.count >= 2 + count else { return nil }
            length = 0
            for byte in rest.dropFirst(2).prefix(count) { length = length << 8 | Int(byte) }
            header += count
        }
        guard rest.count - header >= length else { return nil }
        return (header, length)
    }
}
