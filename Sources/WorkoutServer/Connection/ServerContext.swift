package import Logging
import Synchronization
package import WorkoutCore
import WorkoutProtocol

/// What every connection shares: configuration, routes, the household, statistics, the log,
/// and the registry of open connections.
package final class ServerContext: Sendable {
    package let configuration: ServerConfiguration
    package let router: Router
    package let household: HouseholdStore
    package let statistics: ServerStatistics
    package let logger: Logger
    /// The connection rules' settings, from the configuration.
    let connectionLimits: ServerConnectionMachine.Limits
    /// The methods served, by number: made once, shared by every connection's machine.
    let methods: [UInt32: MethodDescriptor]
    /// Where the HTTP face's paths lead: made once, shared by every connection's machine.
    let httpRoutes: HTTPRoutes
    /// Logs a store out of space once per interval, and its recovery.
    let storageAlarm: StorageAlarm
    /// Read buffers of ``ServerConfiguration/readChunkSize`` bytes, lent to connections per read.
    let readBuffers: ReadBufferPool
    /// The memory all connections may hold for frames still arriving (at least one largest frame).
    let incompleteFrameBudget: Int
    private let connections = Mutex<[UInt64: Connection]>([:])
    private let perSource = Mutex<[String: Int]>([:])
    private let nextID = Atomic<UInt64>(1)

    init(configuration: ServerConfiguration, router: Router, household: HouseholdStore, statistics: ServerStatistics, logger: Logger) {
        self.configuration = configuration
        self.router = router
        self.household = household
        self.statistics = statistics
        self.logger = logger
        self.connectionLimits = ServerConnectionMachine.Limits(configuration)
        self.methods = router.descriptors
        self.httpRoutes = HTTPRoutes(methods: methods, endpoints: IngestRoutes.byPath, assets: configuration.assets)
        self.storageAlarm = StorageAlarm(household: household, logger: logger)
        self.readBuffers = ReadBufferPool(size: max(configuration.readChunkSize, 4_096))
        self.incompleteFrameBudget = max(configuration.maxIncompleteFrameBytes, configuration.maxFrameSize + (64 << 10))
    }

    /// A new connection id.
    func makeConnectionID() -> UInt64 { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Registers a connection if the limits allow it.
    ///
    /// When the server is full, the connection that has been idle without a session the
    /// longest is shed to make room (members with sessions are the last to be turned away);
    /// only when there is none is the new one refused.
    ///
    /// - Returns: `nil` when admitted, else why not.
    func admit(_ connection: Connection) -> String? {
        let source = connection.peerHost
        let (total, victim) = connections.withLock { open -> (Int, Connection?) in
            // Below the limit nobody is shed, so the scan is not needed.
            if open.count < configuration.maxConnections { return (open.count, nil) }
            var shedding = 0
            var victim: Connection?
            var victimSince = UInt64.max
            for candidate in open.values {
                if candidate.isBeingShed {
                    shedding += 1
                } else if let since = candidate.idleWithoutSessionSince, since < victimSince {
                    victim = candidate
                    victimSince = since
                }
            }
            return (open.count - shedding, victim)
        }
        if total >= configuration.maxConnections {
            guard let victim, victim.shed("the server is full (\(total) connections) and this connection has no session: sign in, or reconnect later") else {
                return "the server has \(total) connections, its limit, and none is idle without a session"
            }
            statistics.connectionShed()
        }
        let fromSource = perSource.withLock { counts -> Int in
            let count = counts[source, default: 0]
            if count < configuration.maxConnectionsPerSource { counts[source] = count + 1 }
            return count
        }
        if fromSource >= configuration.maxConnectionsPerSource {
            return "\(source) has \(fromSource) connections, the limit per address"
        }
        connections.withLock { $0[connection.id] = connection }
        return nil
    }

    /// Forgets a closed connection.
    func remove(_ connection: Connection) {
        let removed = connections.withLock { $0.removeValue(forKey: connection.id) } != nil
        if removed {
            perSource.withLock { counts in
                let source = connection.peerHost
                counts[source, default: 1] -= 1
                if counts[source] == 0 { counts[source] = nil }
            }
        }
    }

    /// Adds `delta` to the memory held for incomplete frames; when that passes the budget,
    /// sheds the connection holding the most (of two holding as much, one without a session).
    /// Bytes of connections already being shed count as given back: their close is under way,
    /// and shedding another for them would turn one excess into several victims.
    func incompleteFrameBytesChanged(by delta: Int) {
        let total = statistics.incompleteFrameBytesChanged(by: delta)
        guard delta > 0, total > incompleteFrameBudget else { return }
        let victim = connections.withLock { open -> Connection? in
            var best: (connection: Connection, bytes: Int, hasSession: Bool)?
            var beingShed = 0
            for candidate in open.values {
                let bytes = candidate.heldFrameBytes
                if candidate.isBeingShed {
                    beingShed += bytes
                    continue
                }
                let hasSession = candidate.hasSession
                if let current = best, bytes < current.bytes || (bytes == current.bytes && (hasSession || !current.hasSession)) {
                    continue
                }
                if bytes > 0 { best = (candidate, bytes, hasSession) }
            }
            return total - beingShed > incompleteFrameBudget ? best?.connection : nil
        }
        if let victim, victim.shed("the server's memory for frames still arriving (\(incompleteFrameBudget) bytes) is in use; this connection held the most") {
            statistics.connectionShed()
        }
    }

    /// Every open connection.
    var openConnections: [Connection] { connections.withLock { Array($0.values) } }
}
