import Foundation
import SwiftProtobuf
import Synchronization
import WorkoutProtocol

/// A member's connection to their household's Workout server: a typed async API over
/// one multiplexed connection, which it opens when first needed and opens again (with
/// backoff and jitter) when it is lost, resuming the session with the stored token.
///
/// Calls from any number of tasks share the connection. A call whose connection is lost
/// before its answer fails with `UNAVAILABLE`, unless it is safe to run again — a read,
/// or a write carrying a client-generated id — in which case it is retried on the new
/// connection. Calls the server never processed (above a GOAWAY's last call id, or never
/// sent) are always retried. Every failure is a ``WorkoutError``.
///
/// ```swift
/// let client = WorkoutClient(configuration: .init(address: ServerAddress("homeserver.local")!))
/// let signedIn = try await client.login(email: "anna@example.com", password: password)
/// let meals = try await client.mealsOfDay(signedIn.profile.today())  // the member's today
/// ```
public final class WorkoutClient: Sendable {
    /// How the client connects and how patient it is.
    public struct Configuration: Sendable, Hashable {
        /// The server.
        public var address: ServerAddress
        /// This device's name, shown in the member's session list (Login and Register).
        public var deviceName: String
        /// The client software, sent in the HELLO.
        public var agent: String
        /// How long connecting and the handshake may take, per attempt.
        public var connectTimeout: Duration
        /// The deadline of a unary call unless the call says otherwise (`nil`: none).
        public var callTimeout: Duration?
        /// How connecting is retried.
        public var reconnect: ReconnectPolicy
        /// How many times one call may be re-sent after losing its connection.
        public var maximumRetries: Int
        /// TLS (the default) or plain TCP.
        public var transportSecurity: TransportSecurity
        /// The largest frame payload this client accepts, announced in its HELLO (65,536
        /// through 67,108,864 bytes; the protocol's 4 MiB by default). The server fits every
        /// answer to it, paging where an answer would be larger; a device short of memory
        /// may announce less.
        public var maxFrameSize: Int
        /// When a silent server is pinged while calls wait, and how long an unanswered PING
        /// takes to count as a lost connection (by default: 15 s, then 10 s).
        public var keepalive: KeepalivePolicy

        /// Makes a configuration.
        ///
        /// - Parameters:
        ///   - address: The server.
        ///   - deviceName: This device's name for the session list.
        ///   - agent: The client software.
        ///   - connectTimeout: Per connection attempt.
        ///   - callTimeout: The default deadline of unary calls.
        ///   - reconnect: The backoff policy.
        ///   - maximumRetries: Re-sends per call.
        ///   - transportSecurity: TLS, or plain TCP.
        ///   - maxFrameSize: The largest frame accepted (clamped to 65,536...67,108,864).
        ///   - keepalive: When to ping a silent server, and when to give it up.
        public init(
            address: ServerAddress,
            deviceName: String = "",
            agent: String = "WorkoutClient/1",
            connectTimeout: Duration = .seconds(5),
            callTimeout: Duration? = .seconds(30),
            reconnect: ReconnectPolicy = ReconnectPolicy(),
            maximumRetries: Int = 3,
            transportSecurity: TransportSecurity = .tls,
            maxFrameSize: Int = 4 << 20,
            keepalive: KeepalivePolicy = KeepalivePolicy()
        ) {
            self.address = address
            self.deviceName = deviceName
            self.agent = agent
            self.connectTimeout = connectTimeout
            self.callTimeout = callTimeout
            self.reconnect = reconnect
            self.maximumRetries = max(0, maximumRetries)
            self.transportSecurity = transportSecurity
            self.maxFrameSize = min(max(maxFrameSize, HandshakeLimits.allowedFrameSizes.lowerBound), HandshakeLimits.allowedFrameSizes.upperBound)
            self.keepalive = keepalive
        }
    }

    /// How the client connects.
    public let configuration: Configuration
    /// Whom it trusts (over TLS).
    public let trust: ServerTrust
    /// Makes the byte stream of each connection, when the app supplies one.
    private let makeTransport: (@Sendable () -> any WorkoutTransport)?

    private let state: Mutex<State>

    private struct State {
        var connection: ClientConnection?
        var connecting: Task<ClientConnection, any Error>?
        var token: Data?
        /// The published connection that is bound to a session (resumed or signed in on it).
        var boundConnection: ObjectIdentifier?
        var isClosed = false
        var connectionsOpened = 0
        /// The fingerprint of the invite being registered with, while `register` runs: a server
        /// not pinned yet whose key has it is trusted and pinned, as an expected fingerprint is
        /// (the invite is the member's word for which server it is).
        var invitedFingerprint: ServerFingerprint?
    }

    /// Makes a client; nothing is connected until the first call.
    ///
    /// - Parameters:
    ///   - configuration: Where and how to connect.
    ///   - sessionToken: A token from an earlier Login or Register, or a device token
    ///     (``CreatedDeviceToken/token``), resumed on every connection.
    ///   - trust: Which server keys to trust over TLS (see ``ServerTrust``): by default, a server
    ///     whose key is not pinned in memory yet is refused.
    ///   - transport: Makes the byte stream for each connection (see ``WorkoutTransport``):
    ///     what an app on macOS or iOS supplies for TLS; `nil` uses the built-in socket (with
    ///     OpenSSL on Linux).
    public init(
        configuration: Configuration, sessionToken: SessionToken? = nil, trust: ServerTrust = ServerTrust(),
        transport: (@Sendable () -> any WorkoutTransport)? = nil
    ) {
        self.configuration = configuration
        self.trust = trust
        self.makeTransport = transport
        self.state = Mutex(State(token: sessionToken?.bytes))
    }

    deinit {
        let connection = state.withLock { $0.connection }
        connection?.close(reason: WorkoutError(code: .cancelled, message: "the client was released"))
    }

    /// The session token in use (after Login, Register, or given at creation), or `nil`
    /// when signed out or after the server refused to resume an expired or revoked session.
    ///
    /// A client that stores credentials stores this, never the password.
    public var sessionToken: SessionToken? {
        state.withLock { $0.token }.map { SessionToken(unchecked: $0) }
    }

    /// How many connections this client has opened (the first one included); it grows
    /// by one with every reconnect.
    public var connectionsOpened: Int {
        state.withLock { $0.connectionsOpened }
    }

    /// Closes the connection; calls in flight fail with `CANCELLED` and later calls too.
    public func close() {
        let connection = state.withLock { state in
            state.isClosed = true
            state.connecting?.cancel()
            return state.connection
        }
        connection?.close(reason: WorkoutError(code: .cancelled, message: "the client was closed"))
    }

    // MARK: - Calls, for the typed API

    /// Runs a unary call, retrying it on a new connection when that is safe.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - request: The request message.
    ///   - idempotent: Whether running the call twice has the effect of running it once
    ///     (reads; writes with client-generated ids).
    ///   - timeout: The call's deadline, across retries; `nil` uses the configuration's.
    ///   - serverFingerprint: When given, the call goes only over a connection whose server
    ///     proved it holds the key with this fingerprint (an invite's); checked on every
    ///     connection it is tried on, before anything of it is sent.
    ///   - carriesPassword: Whether the request holds a password: over plain TCP it then goes
    ///     only to a peer whose connected address is loopback (unless passwords are allowed).
    ///   - api: The public method the app called, e.g. `logWorkout(_:)` (the caller's name by
    ///     default): errors name it, and the field at fault in its terms.
    /// - Returns: The response message.
    /// - Throws: ``WorkoutError``; `FAILED_PRECONDITION` when the server's key is not `serverFingerprint`.
    func call<Request, Response>(
        _ method: RPCMethod<Request, Response>, _ request: Request, idempotent: Bool, timeout: Duration? = nil,
        requiringServerFingerprint serverFingerprint: ServerFingerprint? = nil, carriesPassword: Bool = false,
        api: String = #function
    ) async throws(WorkoutError) -> Response {
        do throws(WorkoutError) {
            return try await callOnce(
                method, request, idempotent: idempotent, timeout: timeout, requiringServerFingerprint: serverFingerprint,
                carriesPassword: carriesPassword, api: api)
        } catch {
            throw error.inSwiftTerms(method: method.descriptor.name, call: api)
        }
    }

    /// ``call(_:_:idempotent:timeout:requiringServerFingerprint:carriesPassword:api:)``, with the
    /// errors as the server sent them.
    private func callOnce<Request, Response>(
        _ method: RPCMethod<Request, Response>, _ request: Request, idempotent: Bool, timeout: Duration?,
        requiringServerFingerprint serverFingerprint: ServerFingerprint?, carriesPassword: Bool, api: String
    ) async throws(WorkoutError) -> Response {
        let body = try serialize(request, for: api)
        let deadline = (timeout ?? configuration.callTimeout).map { ContinuousClock.now + $0 }
        var retries = 0
        while true {
            if Task.isCancelled {
                throw WorkoutError(code: .cancelled, message: "the call was cancelled")
            }
            let connection = try await connection()
            if let serverFingerprint { try requireServerKey(serverFingerprint, on: connection, for: api) }
            if carriesPassword { try requireConfidentialTransport(for: api, on: connection) }
            do {
                let bytes = try await connection.unary(method: method.number, body: body, deadline: deadline)
                do {
                    return try Response(serializedBytes: bytes)
                } catch {
                    throw WorkoutError(code: .internal, message: "the server's answer to \(api) does not decode")
                }
            } catch let failure as CallFailure {
                if failure.disposition != .notProcessed { Self.deliveryProbe?.markMayHaveArrived() }
                let safe = failure.disposition == .notProcessed || (failure.disposition == .outcomeUnknown && idempotent)
                guard safe, retries < configuration.maximumRetries else { throw failure.error }
                if let deadline, deadline <= .now {
                    throw WorkoutError(code: .deadlineExceeded, message: "deadline exceeded while reconnecting")
                }
                retries += 1
            } catch let error as WorkoutError {
                throw error
            } catch {
                throw WorkoutError(code: .unknown, message: "\(error)")
            }
        }
    }

    /// Opens a server stream on the current connection (no retry: a stream that breaks
    /// ends with its error, and the caller decides how to resume).
    ///
    /// - Parameters:
    ///   - method: The stream's method.
    ///   - request: Its request.
    ///   - timeout: A deadline for the whole stream (`nil`: none).
    ///   - api: The public method the app called, for messages, e.g. `watch(since:)`.
    /// - Returns: The stream of message bodies.
    func openStream<Request, Message>(
        _ method: RPCMethod<Request, Message>, _ request: Request, timeout: Duration?, api: String
    ) async throws(WorkoutError) -> AsyncThrowingStream<[UInt8], any Error> {
        let body = try serialize(request, for: api)
        let connection = try await connection()
        return connection.stream(method: method.number, body: body, deadline: timeout.map { ContinuousClock.now + $0 })
    }

    /// Runs Login or Register: on a connection without a session (a fresh one if the
    /// current one has a session), and keeps the token it returns.
    ///
    /// - Parameters:
    ///   - method: Login or Register.
    ///   - request: Its request.
    ///   - token: The session token in its response.
    ///   - serverFingerprint: The fingerprint the server's key must have (an invite's), if any.
    ///   - api: The public method the app called (the caller's name by default).
    func signIn<Request, Response>(
        _ method: RPCMethod<Request, Response>, _ request: Request, requiringServerFingerprint serverFingerprint: ServerFingerprint? = nil,
        api: String = #function, token: (Response) -> Data
    ) async throws(WorkoutError) -> Response {
        try requireConfidentialTransport(for: api)
        // A connection bound to a session cannot sign in again: drop it, also when it is
        // still being opened (and resumed with the old token) right now.
        state.withLock { $0.token = nil }
        for _ in 0..<2 {
            let (bound, opening) = state.withLock { state -> (ClientConnection?, Task<ClientConnection, any Error>?) in
                if let connection = state.connection, state.boundConnection == ObjectIdentifier(connection) {
                    state.connection = nil
                    state.boundConnection = nil
                    return (connection, nil)
                }
                return (nil, state.connecting)
            }
            bound?.close(reason: .unavailable("signed in again on a new connection"))
            guard let opening else { break }
            _ = try? await opening.value
        }
        // An invite's fingerprint also trusts a server not pinned yet (on the connection opened
        // for this call); `call` then checks that the connection's server proved it holds that key.
        state.withLock { $0.invitedFingerprint = serverFingerprint }
        defer { state.withLock { $0.invitedFingerprint = nil } }
        let response: Response
        do throws(WorkoutError) {
            response = try await call(
                method, request, idempotent: false, requiringServerFingerprint: serverFingerprint, carriesPassword: true, api: api)
        } catch {
            // The key was expected because of the invite: say so, as for a pinned server.
            if serverFingerprint != nil, trust.expectedFingerprint == nil, let failure = error.trust, failure.kind == .unexpectedKey {
                throw WorkoutError(TrustFailure(
                    .inviteKeyMismatch, address: failure.address, presented: failure.presented, expected: failure.expected))
            }
            throw error
        }
        state.withLock { state in
            state.token = token(response)
            state.boundConnection = state.connection.map(ObjectIdentifier.init)
        }
        return response
    }

    /// Refuses to send a password over plain TCP beyond this machine unless the configuration
    /// allows it (see ``TransportSecurity/plainTCP(allowsPasswords:)``). Before connecting
    /// (`connection` `nil`) the address must be a loopback IP literal or `localhost`; on a
    /// connection, the address it is connected to must be loopback.
    ///
    /// - Parameters:
    ///   - what: The call that would carry the password, for the message.
    ///   - connection: The connection it would go over, once there is one.
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`, ``TrustFailure/Kind/plainTCPRefused``).
    func requireConfidentialTransport(for what: String, on connection: ClientConnection? = nil) throws(WorkoutError) {
        guard case .plainTCP(allowsPasswords: false) = configuration.transportSecurity else { return }
        if let connection {
            if connection.peerIsLoopback { return }
        } else if configuration.address.mayBeLoopback {
            return
        }
        throw WorkoutError(TrustFailure(.plainTCPRefused, address: configuration.address, text: what))
    }

    /// Refuses `connection` for `what` unless its server proved it holds the key with
    /// fingerprint `expected` (TLS, checked by ``ServerTrust``).
    ///
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`, ``TrustFailure/Kind/inviteKeyMismatch``).
    private func requireServerKey(_ expected: ServerFingerprint, on connection: ClientConnection, for what: String) throws(WorkoutError) {
        guard let verified = connection.verifiedServerFingerprint, verified == expected else {
            throw WorkoutError(TrustFailure(
                .inviteKeyMismatch, address: configuration.address, presented: connection.verifiedServerFingerprint, expected: expected))
        }
    }

    /// Forgets the session token (after Logout, or when the server says it is no longer valid).
    func forgetSession() {
        state.withLock { state in
            state.token = nil
            state.boundConnection = nil
        }
    }

    // MARK: - Connecting

    /// The open connection, or a new one (shared by every caller waiting meanwhile).
    private func connection() async throws(WorkoutError) -> ClientConnection {
        enum Next {
            case ready(ClientConnection)
            case wait(Task<ClientConnection, any Error>)
        }
        let next = state.withLock { state -> Next? in
            guard !state.isClosed else { return nil }
            if let connection = state.connection, connection.isUsable { return .ready(connection) }
            if let connecting = state.connecting { return .wait(connecting) }
            let task = Task { try await self.establish() }
            state.connecting = task
            return .wait(task)
        }
        switch next {
        case nil:
            throw WorkoutError(code: .cancelled, message: "the client was closed")
        case .ready(let connection):
            return connection
        case .wait(let task):
            switch await Self.outcome(of: task) {
            case .success(let connection): return connection
            case .failure(let error as WorkoutError): throw error
            case .failure(let error): throw WorkoutError(code: .unavailable, message: "\(error)")
            }
        }
    }

    /// What the connection being opened comes to, or `CANCELLED` as soon as the calling task is
    /// cancelled: the opening is shared by every caller waiting meanwhile, so it goes on for
    /// the others (and is there for the next call), but this caller stops waiting for it.
    private static func outcome(of task: Task<ClientConnection, any Error>) async -> Result<ClientConnection, any Error> {
        let waiter = OneShot<Result<ClientConnection, any Error>>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.attach(continuation)
                Task { waiter.resume(with: await task.result) }
            }
        } onCancel: {
            waiter.resume(with: .failure(WorkoutError(code: .cancelled, message: "the call was cancelled while connecting")))
        }
    }

    /// Connects (with backoff) and resumes the session, then publishes the connection.
    private func establish() async throws -> ClientConnection {
        var failures = 0
        let options = ClientConnection.Options(
            agent: configuration.agent, maxFrameSize: configuration.maxFrameSize, connectTimeout: configuration.connectTimeout,
            keepalive: configuration.keepalive)
        defer { state.withLock { $0.connecting = nil } }
        while true {
            do {
                var trust = self.trust
                if trust.expectedFingerprint == nil { trust.expectedFingerprint = state.withLock { $0.invitedFingerprint } }
                let connection = try await ClientConnection.open(
                    to: configuration.address, options: options, security: configuration.transportSecurity, trust: trust,
                    transport: makeTransport)
                let resumed = try await resumeSession(on: connection)
                let closed = state.withLock { state in
                    state.connectionsOpened += 1
                    if !state.isClosed {
                        state.connection = connection
                        state.boundConnection = resumed ? ObjectIdentifier(connection) : nil
                    }
                    return state.isClosed
                }
                if closed {
                    connection.close(reason: WorkoutError(code: .cancelled, message: "the client was closed"))
                    throw WorkoutError(code: .cancelled, message: "the client was closed")
                }
                return connection
            } catch let failure as CallFailure where failure.disposition != .final {
                failures += 1
                // close() cancels this opening: its callers hear CANCELLED, not that the server
                // cannot be reached.
                if Task.isCancelled || state.withLock({ $0.isClosed }) {
                    throw WorkoutError(code: .cancelled, message: "the client was closed while connecting")
                }
                guard failures < configuration.reconnect.maximumAttempts else {
                    throw WorkoutError(
                        code: .unavailable,
                        message: "cannot reach the Workout server at \(configuration.address): \(failure.error.message)")
                }
                try? await Task.sleep(for: configuration.reconnect.delay(afterFailures: failures))
                if Task.isCancelled || state.withLock({ $0.isClosed }) {
                    throw WorkoutError(code: .cancelled, message: "the client was closed")
                }
            } catch let failure as CallFailure {
                throw failure.error
            }
        }
    }

    /// Binds a new connection to the stored session, if there is one. A session the
    /// server no longer knows is forgotten; the connection stays usable without one.
    ///
    /// - Returns: Whether the connection is now bound to the session.
    private func resumeSession(on connection: ClientConnection) async throws -> Bool {
        guard let token = state.withLock({ $0.token }) else { return false }
        var request = Workout_V1_ResumeRequest()
        request.sessionToken = token
        let body: [UInt8] = (try? request.serializedBytes()) ?? []
        let deadline = ContinuousClock.now + (configuration.callTimeout ?? .seconds(30))
        do {
            _ = try await connection.unary(method: MethodCatalog.resume.number, body: body, deadline: deadline)
            return true
        } catch let failure as CallFailure where failure.disposition == .final && failure.error.code == .unauthenticated {
            state.withLock { state in
                if state.token == token { state.token = nil }
            }
            return false
        } catch let failure as CallFailure where failure.disposition == .final {
            connection.close(reason: failure.error)
            throw failure
        }
    }

    private func serialize(_ request: some SwiftProtobuf.Message, for api: String) throws(WorkoutError) -> [UInt8] {
        do {
            return try request.serializedBytes()
        } catch {
            throw WorkoutError(code: .invalidArgument, message: "cannot encode the request of \(api): \(error)")
        }
    }
}
