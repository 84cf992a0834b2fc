import SwiftASN1

/// What the key check reads of an X.509 certificate (RFC 5280 §4.1), found by walking its DER
/// with swift-asn1: the `subjectPublicKeyInfo` exactly as the certificate carries it (the
/// node's own encoded bytes, never a re-encoding), and the extensions' values. Nothing is
/// verified: the server's certificate is self-signed, and only its key is pinned.
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
    /// Each extension's `extnID` and `extnValue`'s content.
    private let extensions: [(id: ASN1ObjectIdentifier, value: [UInt8])]

    /// Reads `der`; `nil` when it is not a certificate's DER.
    init?(der: [UInt8]) {
        guard let root = try? DER.parse(der), root.identifier == .sequence,
            let tbs = Self.children(of: root)?.first, tbs.identifier == .sequence,
            var fields = Self.children(of: tbs)
        else { return nil }
        if fields.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            fields.removeFirst()  // version, when not v1
        }
        // serialNumber, then signature, issuer, validity, subject and subjectPublicKeyInfo.
        guard fields.count >= 6, fields[0].identifier == .integer,
            fields[1...5].allSatisfy({ $0.identifier == .sequence })
        else { return nil }
        subjectPublicKeyInfo = Array(fields[5].encodedBytes)
        var found: [(id: ASN1ObjectIdentifier, value: [UInt8])] = []
        let extensionsTag = ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific)
        if let wrapped = fields.dropFirst(6).first(where: { $0.identifier == extensionsTag }) {
            guard let list = Self.children(of: wrapped)?.first, list.identifier == .sequence,
                let items = Self.children(of: list)
            else { return nil }
            for item in items {
                guard let parts = Self.children(of: item), let first = parts.first, let last = parts.last,
                    parts.count == 2 || parts.count == 3,
                    let id = try? ASN1ObjectIdentifier(derEncoded: first),
                    let value = try? ASN1OctetString(derEncoded: last)
                else { return nil }
                found.append((id, Array(value.bytes)))
            }
        }
        extensions = found
    }

    /// The content of `extnValue` of the extension `oid` (dotted, e.g. `2.25.1719476253412847629`).
    func extensionValue(oid: String) -> [UInt8]? {
        guard let wanted = try? ASN1ObjectIdentifier(dotRepresentation: oid) else { return nil }
        return extensions.first { $0.id == wanted }?.value
    }

    /// The nodes inside a constructed node; `nil` for a primitive one.
    private static func children(of node: ASN1Node) -> [ASN1Node]? {
        guard case .constructed(let nodes) = node.content else { return nil }
        return Array(nodes)
    }
}
