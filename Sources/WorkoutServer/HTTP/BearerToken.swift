import Foundation

/// The token of an `Authorization: Bearer` header: the session token Auth.Login answered (or a
/// device token), in base64 as protobuf's JSON mapping writes bytes, or base64url; padding
/// optional.
enum BearerToken {
    /// The token's bytes.
    ///
    /// - Throws: ``HTTPRequestError`` 401 when the header is not `Bearer` and a token.
    static func parse(_ header: String) throws(HTTPRequestError) -> [UInt8] {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw HTTPRequestError(.unauthorized, "the Authorization header must be \"Bearer\" and a token")
        }
        var text = String(parts[1].trimmingSpaces)
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while text.hasSuffix("=") { text.removeLast() }
        guard text.utf8.count <= 128 else {
            throw HTTPRequestError(.unauthorized, "the bearer token is longer than any token this server makes")
        }
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: text), !bytes.isEmpty else {
            throw HTTPRequestError(.unauthorized, "the bearer token is not base64")
        }
        return Array(bytes)
    }
}
