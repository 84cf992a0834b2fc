import SystemCalls
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Appends a log file's records around the page cache: a second descriptor of the file, opened
/// `O_DIRECT | O_DSYNC`, writes whole aligned blocks, and each `pwrite` returns once its blocks
/// are durable (written with forced unit access, or followed by a flush of the drive's cache),
/// so no `fdatasync` follows it.
///
/// A direct write covers whole blocks, and a record starts wherever the last one ended, so the
/// appender keeps the block in which the next record begins (its bytes before the record: the
/// ends of earlier records) and writes it again with the record, zeros after it to the end of its
/// last block. The page cache, writing back the page holding a record, writes the same earlier
/// bytes (and, after the record, whatever the page held: older records, which the log's reader
/// tells apart as it does zeros).
///
/// Where the file system refuses `O_DIRECT` (at opening, or with `EINVAL` at the first write),
/// the log file appends through the page cache instead (``FileLogStorage``), and so it does
/// after a failed direct write until a record starts at a block's start again (the log's
/// records start at one whenever a file starts again).
final class DirectAppender {
    /// What an append did.
    enum Outcome {
        /// The record is durable.
        case written
        /// The file system refused this appender's first direct write (`EINVAL`): append
        /// another way, from now on.
        case unsupported
        /// The record does not start where the last one ended, nor at a block's start (after
        /// a failed direct write, say), so the appender does not know the bytes of the block it
        /// starts in: write it another way (the next record at a block's start goes direct
        /// again).
        case tailUnknown
    }

    /// The size and alignment of every direct write: a page, a multiple of every logical block
    /// size a Linux file system uses for `O_DIRECT` (512 or 4,096 bytes).
    static let blockSize = 4_096
    /// The buffer's usual size; one grown for a larger record shrinks back to it afterwards.
    static let usualCapacity = blockSize * 16

    private let path: String
    private let descriptor: Int32
    /// Aligned memory: from its start, the file's bytes from ``tailStart`` up to the next
    /// record's offset, then room for the record and its zeros.
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// The offset of the block in which the next record begins...
    private var tailStart = 0
    /// ... and how many of its bytes, before that record, the buffer holds (-1 after a failed
    /// write: unknown until a record starts at a block's start).
    private var tailLength = -1
    /// Whether a direct write has succeeded: after one, `EINVAL` is an error, not a refusal.
    private var hasWritten = false

    /// Opens `path` for direct, synced writes; `nil` where the system or the file system does
    /// not offer them.
    init?(path: String) {
        #if os(Linux)
        // glibc names the flag O_DIRECT only for _GNU_SOURCE, which Swift's import of it lacks;
        // __O_DIRECT is the same value, defined for each architecture.
        let opened = try? SystemCall.retrying("open", subject: path) { openDirect(path, O_RDWR | __O_DIRECT | O_DSYNC | O_CLOEXEC) }
        guard let opened else { return nil }
        guard let memory = Self.allocate(Self.usualCapacity) else {
            try? SystemCall.close(opened)
            return nil
        }
        self.path = path
        self.descriptor = opened
        self.buffer = memory
        self.capacity = Self.usualCapacity
        #else
        return nil
        #endif
    }

    deinit {
        try? SystemCall.close(descriptor)
        free(buffer)
    }

    /// Writes `record` at `offset` (where the previous record ended, or a block's start, inside
    /// the file's zero-filled size) and returns once it is durable.
    ///
    /// - Returns: `.written`, or why nothing was written.
    /// - Throws: ``LMDBError`` naming `pwrite` (and `errno`) or `posix_memalign` (`ENOMEM`).
    func append(_ record: [UInt8], at offset: Int) throws(LMDBError) -> Outcome {
        if offset % Self.blockSize == 0 {
            // A record at a block's start keeps no earlier bytes.
            tailStart = offset
            tailLength = 0
        }
        guard tailLength >= 0, offset - offset % Self.blockSize == tailStart, offset - tailStart == tailLength else {
            return .tailUnknown
        }
        let end = tailLength + record.count
        let span = (end + Self.blockSize - 1) / Self.blockSize * Self.blockSize
        try reserve(span)
        record.withUnsafeBytes { bytes in
            (buffer + tailLength).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        (buffer + end).initializeMemory(as: UInt8.self, repeating: 0, count: span - end)
        var written = 0
        while written < span {
            let result = pwrite(descriptor, buffer + written, span - written, off_t(tailStart + written))
            if result > 0 && result % Self.blockSize == 0 {
                written += result
                continue
            }
            let code = result < 0 ? errno : EIO
            if code == EINTR { continue }
            if code == EINVAL && written == 0 && !hasWritten { return .unsupported }
            // What the file now holds after the tail is unknown: no more appends here until
            // a record starts at a block's start.
            tailLength = -1
            throw LMDBError(returnCode: code, operation: "pwrite", context: path)
        }
        hasWritten = true
        let newOffset = offset + record.count
        let newBlockStart = newOffset - newOffset % Self.blockSize
        let kept = newOffset - newBlockStart
        if newBlockStart != tailStart {
            buffer.copyMemory(from: buffer + (newBlockStart - tailStart), byteCount: kept)
        }
        tailStart = newBlockStart
        tailLength = kept
        if capacity > Self.usualCapacity, let usual = Self.allocate(Self.usualCapacity) {
            // A large record (an import's batch) grew the buffer: give the memory back.
            usual.copyMemory(from: buffer, byteCount: kept)
            free(buffer)
            buffer = usual
            capacity = Self.usualCapacity
        }
        return .written
    }

    /// Makes room for `size` bytes, keeping the tail.
    private func reserve(_ size: Int) throws(LMDBError) {
        guard size > capacity else { return }
        var grown = capacity
        while grown < size { grown *= 2 }
        guard let memory = Self.allocate(grown) else {
            throw LMDBError(returnCode: ENOMEM, operation: "posix_memalign", context: path)
        }
        memory.copyMemory(from: buffer, byteCount: tailLength)
        free(buffer)
        buffer = memory
        capacity = grown
    }

    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, blockSize, size) == 0 else { return nil }
        return memory
    }
}

/// `open(2)`, named apart from the file's other `open`s.
private func openDirect(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}
