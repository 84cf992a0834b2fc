internal import CLMDB
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// An error returned by liblmdb, or by this wrapper where it refuses a call that liblmdb
/// would reject less clearly (an oversized key, a closed environment).
package struct LMDBError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable set of cases over LMDB's own return codes and `errno`.
    package let code: Code
    /// The C call (or wrapper operation) that failed, for example `mdb_put`.
    package let operation: String
    /// A readable explanation, starting with LMDB's own text for the code.
    package let message: String

    /// Creates an error for a return code of a liblmdb call.
    ///
    /// - Parameters:
    ///   - returnCode: what the C call returned (an `MDB_*` code or an `errno` value).
    ///   - operation: the name of the C call.
    ///   - context: extra words for the message (a path, a table name), or `nil`.
    package init(returnCode: Int32, operation: String, context: String? = nil) {
        self.code = Code(rawValue: returnCode)
        self.operation = operation
        let text = String(cString: mdb_strerror(returnCode))
        if let context {
            self.message = "\(operation): \(text) (\(context))"
        } else {
            self.message = "\(operation): \(text)"
        }
    }

    /// Creates an error the wrapper raises itself, with its own message.
    package init(code: Code, operation: String, message: String) {
        self.code = code
        self.operation = operation
        self.message = "\(operation): \(message)"
    }

    package var description: String { message }

    /// A kind of LMDB failure. Its raw value is the C return code, so codes that this
    /// wrapper does not name (any `errno`) still compare and print correctly.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The C return code: one of `MDB_*` (negative) or an `errno` value (positive).
        package let rawValue: Int32

        /// Creates a code from a C return code.
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// `MDB_KEYEXIST`: the key/data pair already exists.
        package static let keyExists = Code(rawValue: MDB_KEYEXIST)
        /// `MDB_NOTFOUND`: no such key (the wrapper turns this into `nil` where it can).
        package static let notFound = Code(rawValue: MDB_NOTFOUND)
        /// `MDB_PAGE_NOTFOUND`: a requested page was not found, usually corruption.
        package static let pageNotFound = Code(rawValue: MDB_PAGE_NOTFOUND)
        /// `MDB_CORRUPTED`: the located page was the wrong type.
        package static let corrupted = Code(rawValue: MDB_CORRUPTED)
        /// `MDB_PANIC`: a fatal error; the environment must be closed.
        package static let panic = Code(rawValue: MDB_PANIC)
        /// `MDB_VERSION_MISMATCH`: the environment was written by another LMDB version.
        package static let versionMismatch = Code(rawValue: MDB_VERSION_MISMATCH)
        /// `MDB_INVALID`: the file is not an LMDB data file.
        package static let invalid = Code(rawValue: MDB_INVALID)
        /// `MDB_MAP_FULL`: the environment's map size is reached.
        package static let mapFull = Code(rawValue: MDB_MAP_FULL)
        /// `MDB_DBS_FULL`: the maximum number of named databases is reached.
        package static let databasesFull = Code(rawValue: MDB_DBS_FULL)
        /// `MDB_READERS_FULL`: every reader slot is taken.
        package static let readersFull = Code(rawValue: MDB_READERS_FULL)
        /// `MDB_TXN_FULL`: the transaction has too many dirty pages.
        package static let transactionFull = Code(rawValue: MDB_TXN_FULL)
        /// `MDB_CURSOR_FULL`: the cursor stack is too deep (internal).
        package static let cursorFull = Code(rawValue: MDB_CURSOR_FULL)
        /// `MDB_PAGE_FULL`: a page has no more space (internal).
        package static let pageFull = Code(rawValue: MDB_PAGE_FULL)
        /// `MDB_MAP_RESIZED`: another process grew the map beyond this process's map size.
        package static let mapResized = Code(rawValue: MDB_MAP_RESIZED)
        /// `MDB_INCOMPATIBLE`: the operation does not fit the database's flags.
        package static let incompatible = Code(rawValue: MDB_INCOMPATIBLE)
        /// `MDB_BAD_RSLOT`: a reader slot was used wrongly.
        package static let badReaderSlot = Code(rawValue: MDB_BAD_RSLOT)
        /// `MDB_BAD_TXN`: the transaction must abort, has a child, or is invalid.
        package static let badTransaction = Code(rawValue: MDB_BAD_TXN)
        /// `MDB_BAD_VALSIZE`: a key or value has an unsupported size (an empty or oversized key).
        package static let badValueSize = Code(rawValue: MDB_BAD_VALSIZE)
        /// `MDB_BAD_DBI`: the database handle was changed unexpectedly.
        package static let badDatabase = Code(rawValue: MDB_BAD_DBI)
        /// `EACCES`: permission denied (a data directory that is not writable).
        package static let permissionDenied = Code(rawValue: EACCES)
        /// `ENOENT`: no such file or directory.
        package static let noSuchFile = Code(rawValue: ENOENT)
        /// `ENOSPC`: the disk is full.
        package static let noSpace = Code(rawValue: ENOSPC)
        /// The disk quota of the store's owner is used up (`EDQUOT`).
        package static let quotaExceeded = Code(rawValue: EDQUOT)
        /// `EIO`: an input/output error. LMDB also returns it when a write of its pages wrote
        /// fewer bytes than asked without an error of its own (mdb.c's `mdb_page_flush`), which
        /// a disk filling up during the write causes.
        package static let ioError = Code(rawValue: EIO)
        /// `EINVAL`: an invalid parameter, or a call at the wrong time.
        package static let invalidArgument = Code(rawValue: EINVAL)
        /// `EBADF`: the environment is closed (raised by this wrapper).
        package static let closed = Code(rawValue: EBADF)
        /// The write-ahead log is damaged where acknowledged records follow: the environment
        /// was not opened (the wrapper's own code).
        package static let writeAheadLogDamaged = Code(rawValue: -31_001)
        /// The write-ahead log, its checkpoint and the data file do not belong together (a log of
        /// another store, a data file put in the store's place): nothing was applied (the
        /// wrapper's own code).
        package static let writeAheadLogForeign = Code(rawValue: -31_002)
        /// The write-ahead log holds more than its ceiling that no checkpoint covers: writes are
        /// refused (the wrapper's own code).
        package static let writeAheadLogFull = Code(rawValue: -31_003)

        package var description: String {
            switch self {
            case .keyExists: "keyExists"
            case .notFound: "notFound"
            case .pageNotFound: "pageNotFound"
            case .corrupted: "corrupted"
            case .panic: "panic"
            case .versionMismatch: "versionMismatch"
            case .invalid: "invalid"
            case .mapFull: "mapFull"
            case .databasesFull: "databasesFull"
            case .readersFull: "readersFull"
            case .transactionFull: "transactionFull"
            case .cursorFull: "cursorFull"
            case .pageFull: "pageFull"
            case .mapResized: "mapResized"
            case .incompatible: "incompatible"
            case .badReaderSlot: "badReaderSlot"
            case .badTransaction: "badTransaction"
            case .badValueSize: "badValueSize"
            case .badDatabase: "badDatabase"
            case .permissionDenied: "permissionDenied"
            case .noSuchFile: "noSuchFile"
            case .noSpace: "noSpace"
            case .quotaExceeded: "quotaExceeded"
            case .ioError: "ioError"
            case .invalidArgument: "invalidArgument"
            case .closed: "closed"
            case .writeAheadLogDamaged: "writeAheadLogDamaged"
            case .writeAheadLogForeign: "writeAheadLogForeign"
            case .writeAheadLogFull: "writeAheadLogFull"
            default: "code(\(rawValue))"
            }
        }
    }
}

/// Runs a liblmdb call and throws its return code as an ``LMDBError`` unless it is 0.
///
/// - Parameters:
///   - operation: the C call's name, for the error.
///   - context: extra words for the error's message.
///   - call: the call, returning an LMDB return code.
@inline(__always)
func check(_ operation: String, context: @autoclosure () -> String? = nil, _ call: () -> Int32) throws(LMDBError) {
    let rc = call()
    if rc != 0 {
        throw LMDBError(returnCode: rc, operation: operation, context: context())
    }
}
