// Paging (PROTOCOL.md, Queries): a response carries an opaque `next_page_token`, empty at
// the end; the next request passes it back unchanged. Tokens are at most 256 bytes and
// valid only for the query they were issued for.

import Foundation

/// The position of the next page of a paged query (`Queries.WorkoutHistory`,
/// `Queries.WeightProgress`): opaque bytes the server made, to pass back unchanged.
///
/// Valid only for the same query (same range and page size). Codable as a base64 string.
public struct PageToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token's bytes, as the server sent them.
    let bytes: Data

    /// Wraps the token bytes.
    ///
    /// - Parameter bytes: The bytes, as the server sent them.
    init(bytes: Data) {
        self.bytes = bytes
    }

    /// Restores a token saved as ``base64``.
    ///
    /// - Parameter base64: The token as ``base64`` gave it.
    /// - Returns: `nil` if the text is not base64 or decodes to no bytes.
    public init?(base64: String) {
        guard let bytes = Data(base64Encoded: base64), !bytes.isEmpty else { return nil }
        self.bytes = bytes
    }

    /// The token as standard base64 text, for saving it.
    public var base64: String {
        bytes.base64EncodedString()
    }

    /// `"PageToken(<base64>)"`.
    public var description: String {
        "PageToken(\(base64))"
    }

    /// Decodes a token from its base64 string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` unless the string is non-empty base64.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let token = PageToken(base64: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a page token in base64")
        }
        self = token
    }

    /// Encodes this token as its base64 string.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }
}

// MARK: Wire

extension PageToken {
    /// The token of a response's `next_page_token`: `nil` when it is empty (no further page).
    ///
    /// - Parameter wire: The `next_page_token` field.
    init?(wire: Data) {
        guard !wire.isEmpty else { return nil }
        self.init(bytes: wire)
    }
}
