internal import CLMDB

/// Flags for opening an ``Environment``, each mapped to its own liblmdb constant.
///
/// `MDB_NOTLS` is not among them: ``Environment`` always sets it, because read transactions
/// run on whichever Dispatch thread serves a request.
public struct EnvironmentFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_NOSUBDIR`: the path names the data file itself, not a directory holding it.
    public static let noSubdirectory = EnvironmentFlags(rawValue: UInt32(MDB_NOSUBDIR))
    /// `MDB_RDONLY`: open read-only; write transactions fail.
    public static let readOnly = EnvironmentFlags(rawValue: UInt32(MDB_RDONLY))
    /// `MDB_NOSYNC`: do not fsync on commit. Trades durability for speed; never used by the server.
    public static let noSync = EnvironmentFlags(rawValue: UInt32(MDB_NOSYNC))
    /// `MDB_NOMETASYNC`: fsync data but not the meta page on commit.
    public static let noMetaSync = EnvironmentFlags(rawValue: UInt32(MDB_NOMETASYNC))
    /// `MDB_NORDAHEAD`: turn off OS read-ahead (helps random reads on databases larger than RAM).
    public static let noReadAhead = EnvironmentFlags(rawValue: UInt32(MDB_NORDAHEAD))
    /// `MDB_NOMEMINIT`: do not zero malloc'd pages before writing them.
    public static let noMemoryInit = EnvironmentFlags(rawValue: UInt32(MDB_NOMEMINIT))
    /// `MDB_WRITEMAP`: write through a writable memory map.
    public static let writeMap = EnvironmentFlags(rawValue: UInt32(MDB_WRITEMAP))
    /// `MDB_NOTLS`: bind reader slots to transactions, not threads (always set by ``Environment``).
    public static let noThreadLocalStorage = EnvironmentFlags(rawValue: UInt32(MDB_NOTLS))
}

/// Flags for opening a named ``Database``, each mapped to its own liblmdb constant.
public struct DatabaseFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_CREATE`: create the named database if it does not exist.
    public static let create = DatabaseFlags(rawValue: UInt32(MDB_CREATE))
    /// `MDB_REVERSEKEY`: compare keys from their last byte to their first.
    public static let reverseKey = DatabaseFlags(rawValue: UInt32(MDB_REVERSEKEY))
    /// `MDB_DUPSORT`: allow several sorted values per key.
    public static let duplicateSort = DatabaseFlags(rawValue: UInt32(MDB_DUPSORT))
    /// `MDB_INTEGERKEY`: keys are native-endian unsigned integers.
    public static let integerKey = DatabaseFlags(rawValue: UInt32(MDB_INTEGERKEY))
}

/// Flags for a single write (`mdb_put`), each mapped to its own liblmdb constant.
public struct WriteFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_NOOVERWRITE`: fail with `keyExists` instead of replacing an existing value.
    public static let noOverwrite = WriteFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// `MDB_APPEND`: the key is known to sort after every existing key (a fast append).
    public static let append = WriteFlags(rawValue: UInt32(MDB_APPEND))
}
