// The secret that Login and Register hand out and Resume takes back: exactly 32 random
// bytes (PROTOCOL.md, "Authentication and sessions"). A client stores it instead of the
// password, so this type keeps it out of logs: printing, debug-printing, string
// interpolation and `dump` all show "SessionToken(••••)". Only `base64` and Codable
// (meant for the keychain or a credentials file) reveal it.

import Foundation

/// A session token: the 32-byte secret that lets a new connection resume a session
/// (`Auth.Resume`) without the password.
///
/// Keep it secret. It never appears in `description`, `debugDescription` or `dump`
/// output; ``base64`` and the Codable form (a base64 string) reveal it, for storing it
/// in a keychain or a credentials file.
public struct SessionToken: Sendable, Hashable, Codable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The length of a token in bytes.
    public static let byteCount = 32

    /// The token's bytes; 32 of them for every token from a correct server.
    let bytes: Data

    /// Wraps bytes known to be a token.
    ///
    /// - Parameter bytes: The token's bytes.
    init(unchecked bytes: Data) {
        self.bytes = bytes
    }

    /// Restores a stored token from its base64 form.
    ///
    /// - Parameter base64: The token as ``base64`` gave it (standard base64 with padding).
    /// - Returns: `nil` if the text is not base64 or does not decode to exactly 32 bytes.
    public init?(base64: String) {
        guard let bytes = Data(base64Encoded: base64), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The token as standard base64 text (44 characters), for storing it. Secret.
    public var base64: String {
        bytes.base64EncodedString()
    }

    /// `"SessionToken(••••)"`: never the secret.
    public var description: String {
        "SessionToken(••••)"
    }

    /// `"SessionToken(••••)"`: never the secret.
    public var debugDescription: String {
        description
    }

    /// A mirror with no children, so `dump` and reflection do not show the secret.
    public var customMirror: Mirror {
        Mirror(self, children: [])
    }

    /// Decodes a token from its base64 string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` unless the string is base64 of exactly 32 bytes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let token = SessionToken(base64: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a session token: base64 of 32 bytes"
            )
        }
        self = token
    }

    /// Encodes this token as its base64 string (the secret itself).
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }
}

// MARK: Wire

extension SessionToken {
    /// Wraps the wire's `session_token` bytes as they are. A correct server always sends
    /// 32; other lengths are kept (not replaced), so `Auth.Resume` reports the problem.
    ///
    /// - Parameter wire: The `session_token` field.
    init(wire: Data) {
        self.init(unchecked: wire)
    }

    /// The token's bytes, for the wire's `session_token` field.
    var wire: Data {
        bytes
    }
}
