import WorkoutProtocol

/// The answer to `Auth.CreateDeviceToken`: the token to give the device, shown only this once
/// (the server keeps only its hash).
public struct CreatedDeviceToken: Sendable, Hashable, Codable {
    /// The token (32 bytes). A device presents it as a session token: to ``WorkoutClient`` as
    /// its `sessionToken`, or over HTTP as `Authorization: Bearer` followed by
    /// ``SessionToken/base64``. Secret; it never appears in `description` or `dump` output.
    public var token: SessionToken
    /// The token as ``WorkoutClient/deviceTokens(of:)`` lists it.
    public var deviceToken: DeviceToken
    /// A signed token's signing secret (40 hex characters), shown this once: the phone app
    /// signs each post's body with it (`X-Signature: sha256=<hex HMAC-SHA256>`). `nil` for an
    /// unsigned token. Secret, like the token.
    public var signingSecret: String?

    /// Creates a created-device-token result.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - deviceToken: The token as listed.
    ///   - signingSecret: A signed token's signing secret.
    public init(token: SessionToken, deviceToken: DeviceToken, signingSecret: String? = nil) {
        self.token = token
        self.deviceToken = deviceToken
        self.signingSecret = signingSecret
    }
}

// MARK: Wire

extension CreatedDeviceToken {
    /// Creates the result from the wire (`CreateDeviceTokenResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_CreateDeviceTokenResponse) {
        self.init(
            token: SessionToken(wire: wire.token), deviceToken: DeviceToken(wire: wire.deviceToken),
            signingSecret: wire.signingSecret.isEmpty ? nil : wire.signingSecret)
    }
}
