package import LMDB

/// What a store holds: its tables (each a named LMDB database, indexes included) and the
/// schema version, with the migrations that bring an older store up to it.
package struct Schema: Sendable {
    /// The version this build writes. Stored in the meta table; a store with a higher
    /// version is refused.
    package var version: UInt32
    /// The names of every table and index. All are opened (and created) at start.
    package var tables: [String]
    /// Steps from older versions, each producing ``Migration/version``. A new store runs
    /// them all; an older one those above its version, in order.
    package var migrations: [Migration]

    /// Declares a schema.
    package init(version: UInt32, tables: [String], migrations: [Migration] = []) {
        self.version = version
        self.tables = tables
        self.migrations = migrations
    }

    /// The name of the table the store keeps its own facts in (schema version, identity).
    package static let metaTableName = "meta"
}

/// One step of a store's history: what to do to a store at `version - 1` to bring it to `version`.
package struct Migration: Sendable {
    /// The version the store has after this step.
    package var version: UInt32
    /// What the step does, for logs.
    package var summary: String
    /// The step, inside the transaction that also records the new version.
    package var apply: @Sendable (inout WriteTransaction, MigrationContext) throws -> Void

    /// Declares a step.
    package init(version: UInt32, summary: String, apply: @escaping @Sendable (inout WriteTransaction, MigrationContext) throws -> Void) {
        self.version = version
        self.summary = summary
        self.apply = apply
    }
}

/// What a migration sees of the store: its tables by name.
package struct MigrationContext: Sendable {
    let databases: [String: Database]

    /// The table `name`, as declared in the schema.
    package func table<K, V>(_ name: String, keyType: K.Type = K.self, valueType: V.Type = V.self) throws -> Table<K, V> {
        guard let database = databases[name] else {
            throw StorageError(.unknownTable, "the schema declares no table named \(name)")
        }
        return Table(database: database)
    }
}
