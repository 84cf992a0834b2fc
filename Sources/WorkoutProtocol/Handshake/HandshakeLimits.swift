/// The limits and policies one side announces in its HELLO, as a Swift value
/// independent of the generated protobuf messages (the connection maps
/// ClientHello/ServerHello onto it).
package struct HandshakeLimits: Hashable, Sendable {
    /// The default payload limit after the hello exchange: 4 MiB.
    package static let defaultMaxFrameSize = 4 * 1_024 * 1_024
    /// The default number of calls in flight: 64.
    package static let defaultMaxCallsInFlight = 64
    /// The payload limits a HELLO may announce: 64 KiB through 64 MiB.
    package static let allowedFrameSizes = 65_536...67_108_864

    /// The largest frame payload the announcing side accepts.
    package var maxFrameSize: Int
    /// How many calls may be in flight at once.
    package var maxCallsInFlight: Int
    /// Silence after which the side sends a PING; `.zero` = never.
    package var pingInterval: Duration
    /// Inactivity (or an unanswered PING) after which the side closes; `.zero` = never.
    package var idleTimeout: Duration
    /// The largest size a compressed body may inflate to on the announcing side.
    package var maxDecompressedSize: Int
    /// Whether the announcing side accepts COMPRESSED frames.
    package var acceptsCompression: Bool

    /// Makes limits; each defaults to the protocol's default.
    ///
    /// - Parameters:
    ///   - maxFrameSize: The payload limit (default 4 MiB).
    ///   - maxCallsInFlight: The calls in flight (default 64).
    ///   - pingInterval: The keepalive interval (default 30 s).
    ///   - idleTimeout: The idle timeout (default 5 min).
    ///   - maxDecompressedSize: The inflate cap (`nil`: equal to `maxFrameSize`).
    ///   - acceptsCompression: Whether compressed frames are accepted (default true).
    package init(
        maxFrameSize: Int = defaultMaxFrameSize,
        maxCallsInFlight: Int = defaultMaxCallsInFlight,
        pingInterval: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(300),
        maxDecompressedSize: Int? = nil,
        acceptsCompression: Bool = true
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxCallsInFlight = maxCallsInFlight
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.maxDecompressedSize = maxDecompressedSize ?? maxFrameSize
        self.acceptsCompression = acceptsCompression
    }

    /// The protocol's defaults.
    package static let `default` = HandshakeLimits()

    /// Checks limits received in a peer's HELLO.
    ///
    /// - Throws: ``ProtocolError`` `.invalidLimits` when the frame size or the inflate cap
    ///   is outside ``allowedFrameSizes`` or no call may be in flight.
    package func validate() throws(ProtocolError) {
        guard Self.allowedFrameSizes.contains(maxFrameSize) else {
            throw ProtocolError(
                .invalidLimits,
                "max frame size \(maxFrameSize) is outside \(Self.allowedFrameSizes.lowerBound)...\(Self.allowedFrameSizes.upperBound)")
        }
        guard Self.allowedFrameSizes.contains(maxDecompressedSize) else {
            throw ProtocolError(
                .invalidLimits,
                "max decompressed size \(maxDecompressedSize) is outside \(Self.allowedFrameSizes.lowerBound)...\(Self.allowedFrameSizes.upperBound)")
        }
        guard maxCallsInFlight >= 1 else {
            throw ProtocolError(.invalidLimits, "max calls in flight is \(maxCallsInFlight), must be at least 1")
        }
    }
}
