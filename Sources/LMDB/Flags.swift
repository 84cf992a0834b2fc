internal import CLMDB

/// Flags for opening an ``Environment``, each mapped to its own liblmdb constant.
///
/// `MDB_NOTLS` is not among them: ``Environment`` always sets it, because read transactions
/// run on whichever Dispatch thread serves a request.
package struct EnvironmentFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_NOSUBDIR`: the path names the data file itself, not a directory holding it.
    package static let noSubdirectory = EnvironmentFlags(rawValue: UInt32(MDB_NOSUBDIR))
    /// `MDB_RDONLY`: open read-only; write transactions fail.
    package static let readOnly = EnvironmentFlags(rawValue: UInt32(MDB_RDONLY))
    /// `MDB_NOSYNC`: do not fsync on commit. Trades durability for speed; never used by the server.
    package static let noSync = EnvironmentFlags(rawValue: UInt32(MDB_NOSYNC))
    /// `MDB_NOMETASYNC`: fsync data but not the meta page on commit.
    package static let noMetaSync = EnvironmentFlags(rawValue: UInt32(MDB_NOMETASYNC))
    /// `MDB_NORDAHEAD`: turn off OS read-ahead (helps random reads on databases larger than RAM).
    package static let noReadAhead = EnvironmentFlags(rawValue: UInt32(MDB_NORDAHEAD))
    /// `MDB_NOMEMINIT`: do not zero malloc'd pages before writing them.
    package static let noMemoryInit = EnvironmentFlags(rawValue: UInt32(MDB_NOMEMINIT))
    /// `MDB_WRITEMAP`: write through a writable memory map.
    package static let writeMap = EnvironmentFlags(rawValue: UInt32(MDB_WRITEMAP))
    /// `MDB_NOTLS`: bind reader slots to transactions, not threads (always set by ``Environment``).
    package static let noThreadLocalStorage = EnvironmentFlags(rawValue: UInt32(MDB_NOTLS))
}

/// Flags for opening a named ``Database``, each mapped to its own liblmdb constant.
package struct DatabaseFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_CREATE`: create the named database if it does not exist.
    package static let create = DatabaseFlags(rawValue: UInt32(MDB_CREATE))
    /// `MDB_REVERSEKEY`: compare keys from their last byte to their first.
    package static let reverseKey = DatabaseFlags(rawValue: UInt32(MDB_REVERSEKEY))
    /// `MDB_DUPSORT`: allow several sorted values per key.
    package static let duplicateSort = DatabaseFlags(rawValue: UInt32(MDB_DUPSORT))
    /// `MDB_INTEGERKEY`: keys are native-endian unsigned integers.
    package static let integerKey = DatabaseFlags(rawValue: UInt32(MDB_INTEGERKEY))
}

/// Flags for a single write (`mdb_put`), each mapped to its own liblmdb constant.
package struct WriteFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_NOOVERWRITE`: fail with `keyExists` instead of replacing an existing value.
    package static let noOverwrite = WriteFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// `MDB_APPEND`: the key is known to sort after every existing key (a fast append).
    package static let append = WriteFlags(rawValue: UInt32(MDB_APPEND))
}
