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
    /// Read buffers of ``ServerConfiguration/readChunkSize`` bytes, lent to connections per read.
    let readBuffers: ReadBufferPool
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
        self.readBuffers = ReadBufferPool(size: max(configuration.readChunkSize, 4_096))
    }

    /// A new connection id.
    func makeConnectionID() -> UInt64 { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Registers a connection if the limits allow it.
    ///
    /// - Returns: `nil` when admitted, else why not.
    func admit(_ connection: Connection) -> String? {
        let source = connection.peer.host
        let total = connections.withLock { $0.count }
        if total >= configuration.maxConnections {
            return "the server has \(total) connections, its limit"
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
                let source = connection.peer.host
                counts[source, default: 1] -= 1
                if counts[source] == 0 { counts[source] = nil }
            }
        }
    }

    /// Every open connection.
    var openConnections: [Connection] { connections.withLock { Array($0.values) } }
}
