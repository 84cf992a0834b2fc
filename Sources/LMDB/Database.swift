internal import CLMDB

/// A handle of a named database (a table) inside an ``Environment``.
///
/// A plain value: it stays valid until its environment closes and may be used from any
/// transaction of that environment.
package struct Database: Sendable, Hashable {
    /// liblmdb's handle (`MDB_dbi`).
    package let handle: UInt32
    /// The name it was opened with, `nil` for the main database.
    package let name: String?

    /// Wraps an `MDB_dbi` handle.
    package init(handle: UInt32, name: String?) {
        self.handle = handle
        self.name = name
    }

    var dbi: MDB_dbi { MDB_dbi(handle) }

    /// The name for messages.
    var displayName: String { name ?? "(main)" }
}

/// How many entries a database holds and how deep its B-tree is (`MDB_stat`).
package struct DatabaseStatistics: Sendable, Hashable {
    /// The number of key/value pairs.
    package var entries: Int
    /// The depth of the B-tree.
    package var depth: Int
    /// The pages in use: branch, leaf and overflow.
    package var pages: Int
}
