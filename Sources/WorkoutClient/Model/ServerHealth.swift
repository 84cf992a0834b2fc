public import Foundation
import WorkoutProtocol

/// The server's answer to `Meta.Health` (no session needed).
public struct ServerHealth: Sendable, Hashable, Codable {
    /// Whether the server is accepting and serving calls (a server shutting down answers
    /// the call with UNAVAILABLE instead).
    public var isServing: Bool
    /// Name of the server software.
    public var serverAgent: String
    /// Version of the server software.
    public var serverVersion: String
    /// The server's clock when it answered; compare with the device's to estimate skew
    /// (record times are bounded by server time).
    public var serverTime: Date
    /// Milliseconds since the server process started.
    public var uptimeMilliseconds: Int

    /// Creates a health answer (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - isServing: Whether the server serves calls.
    ///   - serverAgent: Server software name.
    ///   - serverVersion: Server software version.
    ///   - serverTime: The server's clock.
    ///   - uptimeMilliseconds: Time since start, ms.
    public init(
        isServing: Bool = true, serverAgent: String = "", serverVersion: String = "", serverTime: Date,
        uptimeMilliseconds: Int = 0
    ) {
        self.isServing = isServing
        self.serverAgent = serverAgent
        self.serverVersion = serverVersion
        self.serverTime = serverTime
        self.uptimeMilliseconds = uptimeMilliseconds
    }
}

// MARK: Wire

extension ServerHealth {
    /// Creates a health answer from the wire (`HealthResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_HealthResponse) {
        self.init(
            isServing: wire.serving, serverAgent: wire.serverAgent, serverVersion: wire.serverVersion,
            serverTime: Date(wireMilliseconds: wire.serverTimeMs), uptimeMilliseconds: Int(clamping: wire.uptimeMs)
        )
    }
}
