/// An error of the storage layer: what went wrong, a readable message, and the error
/// underneath (often an `LMDBError`).
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across versions.
    public let code: Code
    /// A readable explanation naming the table, key or path involved.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying { return "\(message): \(underlying)" }
        return message
    }

    /// A kind of storage failure. New kinds may be added; switch with a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case dataDirectory, notAStore, schemaTooNew, migrationFailed
            case corruptValue, malformedKey, unknownTable, closed, database, storeExists, damagedBackup
            case storageFull, logRefused, notDurable
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The data directory cannot be created, opened or written.
        public static let dataDirectory = Code(.dataDirectory)
        /// The directory holds something that is not this application's LMDB store.
        public static let notAStore = Code(.notAStore)
        /// The store was written by a newer schema than this build knows.
        public static let schemaTooNew = Code(.schemaTooNew)
        /// A migration failed; the store was left at its previous version.
        public static let migrationFailed = Code(.migrationFailed)
        /// A stored value could not be decoded.
        public static let corruptValue = Code(.corruptValue)
        /// A key's bytes do not decode as the table's key type.
        public static let malformedKey = Code(.malformedKey)
        /// A table was asked for that the schema does not declare.
        public static let unknownTable = Code(.unknownTable)
        /// The store or its writer is closed.
        public static let closed = Code(.closed)
        /// liblmdb failed; the underlying error is an `LMDBError`.
        public static let database = Code(.database)
        /// The target directory holds a store already, and replacing it was not asked for
        /// (``Store/restore(backup:into:schema:replacing:)``).
        public static let storeExists = Code(.storeExists)
        /// A backup archive is truncated, altered or not an archive at all; nothing was restored.
        public static let damagedBackup = Code(.damagedBackup)

        /// A write failed for lack of space: the disk (or quota) holding the store is full, or
        /// the map is at its configured maximum. Nothing of the write was stored; reads go on,
        /// and writes succeed again once there is room.
        public static let storageFull = Code(.storageFull)

        /// The store's write-ahead log cannot be replayed whole (damage with acknowledged records
        /// after it), or it, its checkpoint and the data file do not belong together: the store
        /// was not opened, and the message says what to do (a backup, or a repair).
        public static let logRefused = Code(.logRefused)

        /// A write was refused because the store cannot make its data file durable: the
        /// write-ahead log reached its ceiling with no checkpoint (a sync of the data file
        /// failed, or checkpoints cannot be recorded). Nothing of the write was stored; reads go
        /// on, every acknowledged write is in the log, and opening the store again replays it.
        public static let notDurable = Code(.notDurable)

        public var description: String { String(describing: wrapped) }
    }
}
