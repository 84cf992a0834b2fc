package import WorkoutTLS

/// Where the server listens and the limits it keeps, each with a sane default.
package struct ServerConfiguration: Sendable {
    /// The host to listen on: a name or numeric address; "localhost" listens on both
    /// 127.0.0.1 and ::1, "::" and "0.0.0.0" on every interface.
    package var host = "127.0.0.1"
    /// The port; 0 picks a free one (tests).
    package var port = 7420
    /// The listen backlog.
    package var backlog: Int32 = 512

    /// The most connections open at once; more are refused with RESOURCE_EXHAUSTED.
    package var maxConnections = 1_024
    /// The most connections open at once from one address.
    package var maxConnectionsPerSource = 256
    /// The largest frame payload the server accepts, in bytes (advertised in ServerHello).
    package var maxFrameSize = 4 << 20
    /// The most calls in flight per connection; more are answered RESOURCE_EXHAUSTED.
    package var maxCallsInFlight = 64
    /// How many bytes of responses may wait for a slow reader before the server stops reading
    /// that connection's requests.
    package var maxBufferedOutput = 8 << 20
    /// How long a connection may stay above ``maxBufferedOutput`` before it is dropped.
    package var slowReaderTimeout: Duration = .seconds(30)
    /// How long a client has to finish its preface and HELLO.
    package var handshakeTimeout: Duration = .seconds(10)
    /// A connection with no calls (and no open Watch) for this long is closed with GOAWAY.
    package var idleTimeout: Duration = .seconds(300)
    /// How often the server pings a quiet connection; a PING left unanswered (nothing at all
    /// arrives) for ``idleTimeout`` closes it with GOAWAY UNAVAILABLE.
    package var pingInterval: Duration = .seconds(30)
    /// The memory all connections together may hold for frames still arriving; past it, the
    /// connection holding the most is shed. At least
    /// ``maxFrameSize``, so one frame of the largest size can always arrive.
    package var maxIncompleteFrameBytes = 16 << 20
    /// How long one frame may take to arrive whole, from its first byte (slow senders).
    package var frameTimeout: Duration = .seconds(30)
    /// How long a connection without a session may go without calls before GOAWAY OK.
    package var sessionlessIdleTimeout: Duration = .seconds(15)
    /// How long one Watch stream may stay open before the server ends it (the client resumes).
    package var maxStreamDuration: Duration = .seconds(24 * 3600)
    /// How long a graceful shutdown waits for calls in flight.
    package var shutdownGracePeriod: Duration = .seconds(10)
    /// The bytes one read asks for (at least 4 KiB); buffers are pooled, not held per connection.
    package var readChunkSize = 64 << 10
    /// HTTP: the largest request head (request line and header fields).
    package var maxHTTPHeadBytes = 16 << 10
    /// HTTP: the most header fields in one request.
    package var maxHTTPHeaderCount = 100
    /// HTTP: requests served on one kept-alive connection before it is closed.
    package var maxHTTPRequestsPerConnection = 10_000
    /// HTTP: how long a kept-alive connection with a session may wait for its next request.
    package var httpIdleTimeout: Duration = .seconds(60)
    /// Files the HTTP face serves for GET, by path (`/`, `/app.js`): the dashboard.
    package var assets: [String: StaticAsset] = [:]
    /// The server's name and version in ServerHello and Meta.Health.
    package var agent = "workoutd/0.1"
    /// TLS with the server's identity (see ``ServerIdentity``), or `nil` for plain TCP, which
    /// ``WorkoutServer/start()`` allows only on loopback unless ``allowsPlainTCP`` says so.
    package var tls: TLSContext?
    /// Whether plain TCP may listen beyond loopback (a TLS-terminating proxy in front, a
    /// benchmark's comparison): the operator's explicit choice.
    package var allowsPlainTCP = false

    /// The defaults.
    package init() {}
}

extension ServerConnectionMachine.Limits {
    /// The connection rules' settings of `configuration`.
    init(_ configuration: ServerConfiguration) {
        self.init()
        maxFrameSize = configuration.maxFrameSize
        maxCallsInFlight = configuration.maxCallsInFlight
        maxBufferedOutput = configuration.maxBufferedOutput
        slowReaderTimeout = configuration.slowReaderTimeout
        handshakeTimeout = configuration.handshakeTimeout
        idleTimeout = configuration.idleTimeout
        pingInterval = configuration.pingInterval
        maxStreamDuration = configuration.maxStreamDuration
        frameTimeout = configuration.frameTimeout
        sessionlessIdleTimeout = configuration.sessionlessIdleTimeout
        maxHTTPHeadBytes = configuration.maxHTTPHeadBytes
        maxHTTPHeaderCount = configuration.maxHTTPHeaderCount
        maxHTTPRequestsPerConnection = configuration.maxHTTPRequestsPerConnection
        httpIdleTimeout = configuration.httpIdleTimeout
        agent = configuration.agent
        serverVersion = WorkoutServer.version
    }
}
