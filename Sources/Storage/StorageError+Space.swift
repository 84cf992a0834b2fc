import LMDB

import SystemCalls

extension StorageError {
    /// How little room left on the store's file system makes an `EIO` from a write mean that
    /// the disk is full. LMDB reports a write of its pages that the disk could not take whole
    /// as `EIO`, and such a write leaves less room than its commit needed; 8 MiB is more than a
    /// batch of the server's writes needs, and less than a disk in good health runs at.
    static let fullDiskThreshold: UInt64 = 8 << 20

    /// `error` as ``Code/storageFull`` when it says the store had no room to grow (a full disk,
    /// an exhausted quota, or the map at its configured maximum), as ``Code/notDurable`` when
    /// the write-ahead log refused it at its ceiling; `nil` for any other error.
    ///
    /// An `EIO` is a lack of space only when the file system holding the store has less than
    /// ``fullDiskThreshold`` bytes left (`availableBytes`, asked only then): LMDB turns a short
    /// write into `EIO`, but a failing disk reports `EIO` too, and that one stays an internal
    /// error.
    ///
    /// - Parameters:
    ///   - error: what the write or commit threw.
    ///   - availableBytes: the bytes left on the store's file system, `nil` when unknown.
    package init?(lackOfSpace error: any Error, availableBytes: () -> UInt64?) {
        guard let lmdb = error as? LMDBError else { return nil }
        switch lmdb.code {
        case .noSpace, .quotaExceeded:
            self.init(.storageFull, "the disk holding the store is full", underlying: lmdb)
        case .mapFull:
            self.init(.storageFull, "the store has reached its maximum size", underlying: lmdb)
        case .writeAheadLogFull:
            self.init(.notDurable, "the store cannot make its data file durable", underlying: lmdb)
        case .ioError:
            guard let available = availableBytes(), available < Self.fullDiskThreshold else { return nil }
            self.init(.storageFull, "the disk holding the store is full (\(available) bytes left)", underlying: lmdb)
        default:
            return nil
        }
    }
}
