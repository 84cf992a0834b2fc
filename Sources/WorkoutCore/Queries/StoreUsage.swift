package import Foundation
package import LMDB

/// How the store is doing, for `Admin.Stats`: the group-commit writer's counts and the map.
package struct StoreUsage: Sendable, Hashable {
    /// Durable commits so far.
    package var commits: UInt64
    /// Write operations those commits carried.
    package var writeOperations: UInt64
    /// Operations per commit, on average.
    package var operationsPerCommit: Double
    /// The memory map's size, when the environment answered.
    package var mapSizeBytes: UInt64?
    /// The bytes in use of it.
    package var usedBytes: UInt64?
    /// Since when writes have been failing for lack of space (`nil`: they are not).
    package var storageFullSince: Date?
    /// Writes refused for lack of space since the server started.
    package var writesRefusedForSpace: UInt64 = 0
    /// Where the write-ahead log stands against its ceiling (`nil`: no log kept here).
    package var writeAheadLog: WriteAheadLogStatus?
}

extension HouseholdStore {
    /// The writer's counts and the map's size now.
    package func storeUsage() -> StoreUsage {
        let writer = store.writer.statistics
        let info = try? store.environment.info()
        return StoreUsage(
            commits: UInt64(writer.commits), writeOperations: UInt64(writer.operations),
            operationsPerCommit: writer.operationsPerCommit,
            mapSizeBytes: info.map { UInt64($0.mapSize) }, usedBytes: info.map { UInt64($0.usedBytes) },
            storageFullSince: writer.storageFullSince, writesRefusedForSpace: UInt64(writer.operationsRefusedForSpace),
            writeAheadLog: store.environment.writeAheadLogStatus)
    }
}
