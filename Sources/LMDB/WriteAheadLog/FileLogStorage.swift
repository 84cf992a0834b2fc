#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The write-ahead log's files in a directory (the environment's), through ``FileIO``: every
/// call retries `EINTR` and fails with the call's name, `errno` and the file's path.
final class FileLogStorage: LogStorage {
    let directory: String
    /// Whether durable writes may go around the page cache (``DirectAppender``).
    private let directIO: Bool

    init(directory: String, directIO: Bool) {
        self.directory = directory
        self.directIO = directIO
    }

    func open(_ name: String) throws(LMDBError) -> any LogStorageFile {
        try File(path: describe(name), directIO: directIO)
    }

    func describe(_ name: String) -> String { directory + "/" + name }

    /// A MiB: a sync of the file's size once a MiB of log.
    let growthStep = 1 << 20

    /// One file, open for reading and writing.
    final class File: LogStorageFile {
        let path: String
        private let descriptor: Int32
        /// The direct path, while the file system takes it.
        private var direct: DirectAppender?
        private(set) var directWrites = 0

        init(path: String, directIO: Bool) throws(LMDBError) {
            self.path = path
            self.descriptor = try FileIO.open(path)
            self.direct = directIO ? DirectAppender(path: path) : nil
        }

        deinit {
            FileIO.release(descriptor)
        }

        func size() throws(LMDBError) -> Int { try FileIO.size(descriptor, path: path) }

        func read(count: Int, at offset: Int) throws(LMDBError) -> [UInt8] {
            try FileIO.read(descriptor, count: count, at: offset, path: path)
        }

        func write(_ bytes: [UInt8], at offset: Int) throws(LMDBError) {
            try FileIO.write(descriptor, bytes, at: offset, path: path)
        }

        func sync() throws(LMDBError) { try FileIO.sync(descriptor, path: path) }

        func truncate(to size: Int) throws(LMDBError) {
            try FileIO.truncate(descriptor, to: size, path: path)
            try sync()
        }

        func writeDurably(_ bytes: [UInt8], at offset: Int) throws(LMDBError) {
            if let direct {
                switch try direct.append(bytes, at: offset) {
                case .written:
                    directWrites += 1
                    return
                case .unsupported:
                    // The file system took the descriptor but not its writes.
                    self.direct = nil
                case .tailUnknown:
                    break
                }
            }
            try write(bytes, at: offset)
            try sync()
        }

        func claimOwnership() throws(LMDBError) -> Bool {
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                if errno == EINTR { continue }
                if errno == EWOULDBLOCK { return false }
                throw LMDBError(returnCode: errno, operation: "flock", context: path)
            }
            return true
        }

        func releaseOwnership() {
            _ = flock(descriptor, LOCK_UN)
        }

        func withRecordLock<R>(_ body: () throws(LMDBError) -> R) throws(LMDBError) -> R {
            try lockRecords(F_WRLCK)
            defer { try? lockRecords(F_UNLCK) }
            return try body()
        }

        /// Takes (waiting) or releases the whole file's `fcntl` record lock.
        private func lockRecords(_ type: Int32) throws(LMDBError) {
            var lock = flock()
            lock.l_type = Int16(type)
            lock.l_whence = Int16(SEEK_SET)
            while fcntl(descriptor, F_SETLKW, &lock) != 0 {
                if errno == EINTR { continue }
                throw LMDBError(returnCode: errno, operation: "fcntl", context: path)
            }
        }
    }
}
