@testable import LMDB

/// An in-memory disk for the write-ahead log, after SQLite's `test6.c`: it keeps what was
/// written and what was synced apart, and its crash image keeps every synced byte and, of each
/// 512-byte sector written since the last sync, the new bytes or the old ones at random (a torn
/// write is such a mix). It can also fail a chosen write or sync, or stop the world at one (a
/// crash point), counting every write and sync of the log and of the model data file alike.
final class MemoryDisk: LogStorage {
    static let sectorSize = 512

    /// Thrown at the crash point: the process is gone from there on.
    struct Crash: Error {}

    /// What the next writes and syncs do.
    struct Faults {
        /// The operation (counted from 1) at which the process stops.
        var crashAt: Int?
        /// Operations that fail with `EIO` (and do nothing).
        var failing: Set<Int> = []
    }

    private(set) var files: [String: File] = [:]
    var faults = Faults()
    /// Writes and syncs so far.
    private(set) var operations = 0

    init() {}

    func open(_ name: String) throws(LMDBError) -> any LogStorageFile {
        if let file = files[name] { return file }
        let file = File(disk: self)
        files[name] = file
        return file
    }

    func describe(_ name: String) -> String { "memory/" + name }

    /// Small, so that the tests' files stay a few KiB and their scans short.
    let growthStep = 4_096

    /// Counts one operation: throws at the crash point and at a failing one.
    func operation(_ what: String) throws(LMDBError) {
        operations += 1
        if operations == faults.crashAt { crashed = true }
        if crashed { throw LMDBError(code: .ioError, operation: what, message: "crashed") }
        if faults.failing.contains(operations) { throw LMDBError(code: .ioError, operation: what, message: "failed on purpose") }
    }

    /// Set at the crash point: nothing is written from there on.
    private(set) var crashed = false

    /// What a power cut now leaves: synced bytes, and each sector written since the last sync
    /// new or old at random.
    func crashImage(using random: inout some RandomNumberGenerator) -> MemoryDisk {
        let image = MemoryDisk()
        for (name, file) in files { image.files[name] = file.afterCrash(disk: image, using: &random) }
        return image
    }

    /// The same bytes as this disk's synced ones and sectors kept, in new files: a copy of the
    /// directory (`cp -a`).
    func copy() -> MemoryDisk {
        let copy = MemoryDisk()
        for (name, file) in files { copy.files[name] = File(disk: copy, bytes: file.bytes) }
        return copy
    }

    final class File: LogStorageFile {
        unowned let disk: MemoryDisk
        /// What reads see.
        private(set) var bytes: [UInt8]
        /// The size the disk holds for sure.
        private var durableSize: Int
        /// Of each sector written since the last sync, what the disk held before (copied on
        /// the sector's first write): the disk holds one or the other after a power cut.
        private var previous: [Int: [UInt8]] = [:]
        private(set) var directWrites = 0

        init(disk: MemoryDisk, bytes: [UInt8] = []) {
            self.disk = disk
            self.bytes = bytes
            self.durableSize = bytes.count
        }

        func size() throws(LMDBError) -> Int { bytes.count }

        func read(count: Int, at offset: Int) throws(LMDBError) -> [UInt8] {
            guard offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }

        func write(_ new: [UInt8], at offset: Int) throws(LMDBError) {
            try disk.operation("pwrite")
            guard !new.isEmpty else { return }
            let sectorSize = MemoryDisk.sectorSize
            for sector in (offset / sectorSize)...((offset + new.count - 1) / sectorSize) where previous[sector] == nil {
                let start = sector * sectorSize
                previous[sector] = start < bytes.count ? Array(bytes[start..<min(bytes.count, start + sectorSize)]) : []
            }
            if bytes.count < offset + new.count { bytes += [UInt8](repeating: 0, count: offset + new.count - bytes.count) }
            bytes.replaceSubrange(offset..<(offset + new.count), with: new)
        }

        func sync() throws(LMDBError) {
            try disk.operation("fdatasync")
            durableSize = bytes.count
            previous = [:]
        }

        func truncate(to size: Int) throws(LMDBError) {
            try disk.operation("ftruncate")
            bytes = Array(bytes.prefix(size))
            durableSize = bytes.count
            previous = [:]
        }

        func writeDurably(_ new: [UInt8], at offset: Int) throws(LMDBError) {
            try write(new, at: offset)
            try sync()
            directWrites += 1
        }

        func claimOwnership() throws(LMDBError) -> Bool { true }
        func releaseOwnership() {}
        func withRecordLock<R>(_ body: () throws(LMDBError) -> R) throws(LMDBError) -> R { try body() }

        /// This file after a power cut, on `disk`: each sector written since the last sync new
        /// or old at random, and the size the synced one or the written one.
        func afterCrash(disk: MemoryDisk, using random: inout some RandomNumberGenerator) -> File {
            var image = bytes
            let sectorSize = MemoryDisk.sectorSize
            for (sector, old) in previous where Bool.random(using: &random) {
                let start = sector * sectorSize
                let end = min(image.count, start + sectorSize)
                // The old bytes, zeros past the old end of the file.
                image.replaceSubrange(start..<end, with: old + [UInt8](repeating: 0, count: end - start - old.count))
            }
            if image.count > durableSize && Bool.random(using: &random) { image.removeLast(image.count - durableSize) }
            return File(disk: disk, bytes: image)
        }

        /// Flips bits of the byte at `offset`, as damage to synced bytes would.
        func damage(at offset: Int) {
            bytes[offset] ^= 0x5A
        }
    }
}
