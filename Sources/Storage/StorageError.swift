/// An error of the storage layer: what went wrong, a readable message, and the error
/// underneath (often an `LMDBError`).
package struct StorageError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across versions.
    package let code: Code
    /// A readable explanation naming the table, key or path involved.
    package let message: String
    /// The error that caused this one, if any.
    package let underlying: (any Error & Sendable)?

    /// Creates an error.
    package init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    package var description: String {
        if let underlying { return "\(message): \(underlying)" }
        return message
    }

    /// A kind of storage failure. New kinds may be added; switch with a default.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case dataDirectory, notAStore, schemaTooNew, migrationFailed
            case corruptValue, malformedKey, unknownTable, closed, database, storeExists, damagedBackup
            case storageFull, logRefused, notDurable
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The data directory cannot be created, opened or written.
        package static let dataDirectory = Code(.dataDirectory)
        /// The directory holds something that is not this application's LMDB store.
        package static let notAStore = Code(.notAStore)
        /// The store was written by a newer schema than this build knows.
        package static let schemaTooNew = Code(.schemaTooNew)
        /// A migration failed; the store was left at its previous version.
        package static let migrationFailed = Code(.migrationFailed)
        /// A stored value could not be decoded.
        package static let corruptValue = Code(.corruptValue)
        /// A key's bytes do not decode as the table's key type.
        package static let malformedKey = Code(.malformedKey)
        /// A table was asked for that the schema does not declare.
        package static let unknownTable = Code(.unknownTable)
        /// The store or its writer is closed.
        package static let closed = Code(.closed)
        /// liblmdb failed; the underlying error is an `LMDBError`.
        package static let database = Code(.database)
        /// The target directory holds a store already, and replacing it was not asked for
        /// (``Store/restore(backup:into:schema:replacing:)``).
        package static let storeExists = Code(.storeExists)
        /// A backup archive is truncated, altered or not an archive at all; nothing was restored.
        package static let damagedBackup = Code(.damagedBackup)

        /// A write failed for lack of space: the disk (or quota) holding the store is full, or
        /// the map is at its configured maximum. Nothing of the write was stored; reads go on,
        /// and writes succeed again once there is room.
        package static let storageFull = Code(.storageFull)

        /// The store's write-ahead log cannot be replayed whole (damage with acknowledged records
        /// after it), or it, its checkpoint and the data file do not belong together: the store
        /// was not opened, and the message says what to do (a backup, or a repair).
        package static let logRefused = Code(.logRefused)

        /// A write was refused because the store cannot make its data file durable: the
        /// write-ahead log reached its ceiling with no checkpoint (a sync of the data file
        /// failed, or checkpoints cannot be recorded). Nothing of the write was stored; reads go
        /// on, every acknowledged write is in the log, and opening the store again replays it.
        package static let notDurable = Code(.notDurable)

        package var description: String { String(describing: wrapped) }
    }
}
