import LMDB

extension StorageError {
    /// `error` as ``Code/storageFull`` when it says the store had no room to grow (a full disk,
    /// an exhausted quota, or the map at its configured maximum); `nil` for any other error.
    public init?(lackOfSpace error: any Error) {
        guard let lmdb = error as? LMDBError else { return nil }
        switch lmdb.code {
        case .noSpace, .quotaExceeded:
            self.init(.storageFull, "the disk holding the store is full", underlying: lmdb)
        case .mapFull:
            self.init(.storageFull, "the store has reached its maximum size", underlying: lmdb)
        default:
            return nil
        }
    }
}
