internal import CLMDB

/// A handle of a named database (a table) inside an ``Environment``.
///
/// A plain value: it stays valid until its environment closes and may be used from any
/// transaction of that environment.
public struct Database: Sendable, Hashable {
    /// liblmdb's handle (`MDB_dbi`).
    public let handle: UInt32
    /// The name it was opened with, `nil` for the main database.
    public let name: String?

    /// Wraps an `MDB_dbi` handle.
    public init(handle: UInt32, name: String?) {
        self.handle = handle
        self.name = name
    }

    var dbi: MDB_dbi { MDB_dbi(handle) }

    /// The name for messages.
    var displayName: String { name ?? "(main)" }
}

/// How many entries a database holds and how deep its B-tree is (`MDB_stat`).
public struct DatabaseStatistics: Sendable, Hashable {
    /// The number of key/value pairs.
    public var entries: Int
    /// The depth of the B-tree.
    public var depth: Int
    /// The pages in use: branch, leaf and overflow.
    public var pages: Int
}
