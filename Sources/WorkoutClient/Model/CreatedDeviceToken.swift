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

    /// Creates a created-device-token result.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - deviceToken: The token as listed.
    public init(token: SessionToken, deviceToken: DeviceToken) {
        self.token = token
        self.deviceToken = deviceToken
    }
}

// MARK: Wire

extension CreatedDeviceToken {
    /// Creates the result from the wire (`CreateDeviceTokenResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_CreateDeviceTokenResponse) {
        self.init(token: SessionToken(wire: wire.token), deviceToken: DeviceToken(wire: wire.deviceToken))
    }
}
