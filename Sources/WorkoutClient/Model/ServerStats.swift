public import Foundation
import WorkoutProtocol

/// The running server's counters since it started (`Admin.Stats`, admin-only).
public struct ServerStats: Sendable, Hashable, Codable {
    /// Milliseconds since the server process started.
    public var uptimeMilliseconds: Int
    /// Connections open now.
    public var openConnections: Int
    /// Connections accepted since start.
    public var acceptedConnections: Int
    /// Connections refused (over the connection limits) since start.
    public var rejectedConnections: Int
    /// Connections open now that are bound to a session.
    public var authenticatedConnections: Int
    /// Per method, for every method called at least once, by number.
    public var methods: [MethodStats]
    /// Size of the store on disk, bytes.
    public var storeSizeBytes: Int
    /// Bytes of the store in use.
    public var storeUsedBytes: Int
    /// Write transactions committed since start.
    public var commits: Int
    /// Write operations applied since start (each in one of those commits).
    public var writeOperations: Int
    /// Write operations per commit on average (0 before the first commit): how many
    /// writes one fsync carried.
    public var operationsPerCommit: Double
    /// Number of member accounts.
    public var members: Int
    /// Bytes of the store's write-ahead log that no checkpoint covers (a few MiB while its
    /// checkpoints are recorded).
    public var writeAheadLogUncoveredBytes: Int = 0
    /// Past this many uncovered bytes the server refuses writes (0: not told).
    public var writeAheadLogCeilingBytes: Int = 0
    /// Whether the server refuses writes now because it cannot make its data file durable.
    public var refusingWritesNotDurable = false
    /// Whether a sync of the store's data file failed since the server started (a failing disk:
    /// a restart replays the log).
    public var dataFileSyncFailed = false
    /// The server's clock when it answered.
    public var serverTime: Date

    /// Creates server counters (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - uptimeMilliseconds: Time since start, ms.
    ///   - openConnections: Connections open now.
    ///   - acceptedConnections: Connections accepted.
    ///   - rejectedConnections: Connections refused.
    ///   - authenticatedConnections: Open connections with a session.
    ///   - methods: Per-method counters.
    ///   - storeSizeBytes: Store size on disk.
    ///   - storeUsedBytes: Store bytes in use.
    ///   - commits: Write transactions committed.
    ///   - writeOperations: Write operations applied.
    ///   - operationsPerCommit: Operations per commit.
    ///   - members: Number of accounts.
    ///   - serverTime: The server's clock.
    public init(
        uptimeMilliseconds: Int = 0, openConnections: Int = 0, acceptedConnections: Int = 0,
        rejectedConnections: Int = 0, authenticatedConnections: Int = 0, methods: [MethodStats] = [],
        storeSizeBytes: Int = 0, storeUsedBytes: Int = 0, commits: Int = 0, writeOperations: Int = 0,
        operationsPerCommit: Double = 0, members: Int = 0, serverTime: Date
    ) {
        self.uptimeMilliseconds = uptimeMilliseconds
        self.openConnections = openConnections
        self.acceptedConnections = acceptedConnections
        self.rejectedConnections = rejectedConnections
        self.authenticatedConnections = authenticatedConnections
        self.methods = methods
        self.storeSizeBytes = storeSizeBytes
        self.storeUsedBytes = storeUsedBytes
        self.commits = commits
        self.writeOperations = writeOperations
        self.operationsPerCommit = operationsPerCommit
        self.members = members
        self.serverTime = serverTime
    }
}

// MARK: Wire

extension ServerStats {
    /// Creates server counters from the wire (`StatsResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_StatsResponse) {
        self.init(
            uptimeMilliseconds: Int(clamping: wire.uptimeMs), openConnections: Int(wire.openConnections),
            acceptedConnections: Int(clamping: wire.acceptedConnections),
            rejectedConnections: Int(clamping: wire.rejectedConnections),
            authenticatedConnections: Int(wire.authenticatedConnections), methods: wire.methods.map(MethodStats.init(wire:)),
            storeSizeBytes: Int(clamping: wire.storeSizeBytes), storeUsedBytes: Int(clamping: wire.storeUsedBytes),
            commits: Int(clamping: wire.commits), writeOperations: Int(clamping: wire.writeOperations),
            operationsPerCommit: wire.operationsPerCommit, members: Int(wire.members),
            serverTime: Date(wireMilliseconds: wire.serverTimeMs)
        )
        writeAheadLogUncoveredBytes = Int(clamping: wire.writeAheadLogUncoveredBytes)
        writeAheadLogCeilingBytes = Int(clamping: wire.writeAheadLogCeilingBytes)
        refusingWritesNotDurable = wire.writeAheadLogRefusingWrites
        dataFileSyncFailed = wire.dataFileSyncFailed
    }
}
