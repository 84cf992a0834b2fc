import SystemCalls
import Dispatch
import Foundation
package import Logging
import Synchronization
package import WorkoutCore
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The Workout server: the protocol of Protocol/ on plain POSIX sockets driven by Dispatch,
/// serving a household's store.
///
/// ```swift
/// let server = WorkoutServer(configuration: configuration, household: household, logger: logger)
/// let addresses = try server.start()
/// …
/// await server.shutdown()      // GOAWAY, finish calls in flight, close
/// household.close()
/// ```
package final class WorkoutServer: Sendable {
    /// The server's version, in ServerHello and Meta.Health.
    package static let version = "0.1.0"

    private let context: ServerContext
    private let listeners = Mutex<[ListenerState]>([])
    private let acceptQueue = DispatchQueue(label: "workout.server.accept")
    private let stopping = Atomic<Bool>(false)

    private struct ListenerState: @unchecked Sendable {
        // Safe because: the source is created, resumed and cancelled under the `listeners` lock.
        let descriptor: Int32
        let address: SocketAddress
        let source: any DispatchSourceRead
    }

    /// A server for `household` (which the caller opens and closes).
    package init(configuration: ServerConfiguration, household: HouseholdStore, logger: Logger) {
        let statistics = ServerStatistics()
        let startedAt = Date()
        let agent = configuration.agent
        let router = Router(
            household: household,
            health: {
                var health = Workout_V1_HealthResponse()
                health.serving = true
                health.serverAgent = agent
                health.serverVersion = WorkoutServer.version
                health.serverTimeMs = Int64(Date().timeIntervalSince1970 * 1000)
                health.uptimeMs = UInt64(max(0, Date().timeIntervalSince(startedAt)) * 1000)
                if let since = household.storeUsage().storageFullSince {
                    health.storageFull = true
                    health.storageFullSinceMs = Int64(since.timeIntervalSince1970 * 1000)
                }
                return health
            },
            stats: {
                var stats = statistics.snapshot()
                let usage = household.storeUsage()
                stats.commits = usage.commits
                stats.writeOperations = usage.writeOperations
                stats.operationsPerCommit = usage.operationsPerCommit
                if let mapSize = usage.mapSizeBytes, let used = usage.usedBytes {
                    stats.storeSizeBytes = mapSize
                    stats.storeUsedBytes = used
                }
                if let since = usage.storageFullSince { stats.storageFullSinceMs = Int64(since.timeIntervalSince1970 * 1000) }
                stats.writesRefusedForSpace = usage.writesRefusedForSpace
                if let log = usage.writeAheadLog {
                    stats.writeAheadLogUncoveredBytes = UInt64(log.uncoveredBytes)
                    stats.writeAheadLogCeilingBytes = UInt64(log.ceilingBytes)
                    stats.writeAheadLogRefusingWrites = log.refusingWrites
                    stats.dataFileSyncFailed = log.dataSyncFailed
                }
                stats.members = UInt32((try? household.listMembersLocally().count) ?? 0)
                stats.serverTimeMs = Int64(Date().timeIntervalSince1970 * 1000)
                let process = ProcessUsage.current()
                stats.processCpuUs = process.cpuMicroseconds
                stats.rssAnonBytes = process.residentAnonymousBytes
                stats.rssBytes = process.residentBytes
                stats.openDescriptors = process.openDescriptors
                stats.shedConnections = statistics.shedConnections
                stats.incompleteFrameBytes = UInt64(max(0, statistics.incompleteFrameBytes))
                return stats
            })
        context = ServerContext(configuration: configuration, router: router, household: household, statistics: statistics, logger: logger)
    }

    /// The server's statistics.
    package var statistics: ServerStatistics { context.statistics }

    /// Binds every address of the configured host and starts accepting connections.
    ///
    /// - Returns: the addresses it listens on (with the real port when port 0 was asked for).
    /// - Throws: ``SystemCallError`` when an address cannot be bound; ``PlainTCPNotAllowed``
    ///   for plain TCP beyond loopback that the configuration does not allow.
    @discardableResult
    package func start() throws -> [SocketAddress] {
        let configuration = context.configuration
        var bound: [SocketAddress] = []
        var port = configuration.port
        // Resolved once: the plain-TCP check and the listeners see the same addresses.
        let addresses = try SocketAddress.resolve(host: configuration.host, port: port)
        try PlainTCPNotAllowed.check(addresses, tls: configuration.tls != nil, allowsPlainTCP: configuration.allowsPlainTCP)
        do {
            for address in addresses {
                let (descriptor, local) = try Socket.listen(on: address.with(port: port), backlog: configuration.backlog)
                port = local.port
                bound.append(local)
                let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: acceptQueue)
                source.setEventHandler { [self] in acceptAll(from: descriptor) }
                source.setCancelHandler { try? SystemCall.close(descriptor) }
                listeners.withLock { $0.append(ListenerState(descriptor: descriptor, address: local, source: source)) }
                source.resume()
            }
        } catch {
            stopListening()
            throw error
        }
        context.logger.info("listening", metadata: [
            "addresses": "\(bound.map(\.description).joined(separator: ", "))",
            "transport": "\(configuration.tls == nil ? "plain TCP" : "TLS")",
        ])
        return bound
    }

    /// The addresses listened on.
    package var addresses: [SocketAddress] { listeners.withLock { $0.map(\.address) } }

    private func acceptAll(from listener: Int32) {
        while !stopping.load(ordering: .relaxed) {
            let accepted: (descriptor: Int32, peer: SocketAddress)?
            do {
                accepted = try Socket.accept(from: listener)
            } catch {
                context.logger.warning("accept failed: \(error)")
                return
            }
            guard let (descriptor, peer) = accepted else { return }
            let connection = Connection(descriptor: descriptor, peer: peer, context: context)
            if let refusal = context.admit(connection) {
                context.statistics.connectionRejected()
                context.logger.info("connection refused: \(refusal)", metadata: ["peer": "\(peer)"])
                refuse(descriptor, reason: refusal)
                continue
            }
            context.statistics.connectionOpened()
            connection.start()
        }
    }

    /// Tells a connection over the limits why it is refused (best effort), then closes it.
    private func refuse(_ descriptor: Int32, reason: String) {
        var details = Workout_V1_RpcStatus()
        details.message = "too many connections: \(reason)"
        details.retryAfterMs = 1_000
        var bytes: [UInt8] = []
        Preface.refusal.encode(into: &bytes)
        Frame(type: .goAway, code: StatusCode.resourceExhausted.rawValue, body: (try? details.serializedBytes()) ?? []).encode(into: &bytes)
        _ = bytes.withUnsafeBytes { try? Socket.write(descriptor, $0) }
        try? SystemCall.close(descriptor)
    }

    private func stopListening() {
        let stopped = listeners.withLock { state -> [ListenerState] in
            defer { state = [] }
            return state
        }
        for listener in stopped { listener.source.cancel() }
    }

    /// Stops gracefully: no new connections, GOAWAY to every connection, calls in flight
    /// finish (up to the grace period), then every connection closes. The household store
    /// stays open for the caller to close (which flushes the writer).
    package func shutdown(gracePeriod: Duration? = nil) async {
        beginShutdown()
        let grace = gracePeriod ?? context.configuration.shutdownGracePeriod
        let deadline = ContinuousClock.now + grace
        while !context.openConnections.isEmpty && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        stopNow()
    }

    /// The first half of ``shutdown(gracePeriod:)``, synchronous and callable from any thread:
    /// stops accepting and sends every connection its GOAWAY; each then closes by itself once
    /// its calls are done. Does nothing the second time.
    package func beginShutdown() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        stopListening()
        context.logger.info("shutting down: GOAWAY to every connection")
        for connection in context.openConnections {
            connection.drain(message: "the server is shutting down")
        }
    }

    /// Closes every connection at once (a second signal, or the end of the grace period).
    package func stopNow() {
        stopping.store(true, ordering: .relaxed)
        stopListening()
        for connection in context.openConnections { connection.closeNow() }
    }
}
