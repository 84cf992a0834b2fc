internal import CLMDB
import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Keeps one reset read-only transaction per thread, so a read costs `mdb_txn_renew` and
/// `mdb_txn_reset` — no allocation and no lock shared with other threads.
///
/// lmdb.h: with `MDB_NOTLS` "a thread may use parallel read-only transactions" and a reset
/// transaction "can be reused with mdb_txn_renew()". Each thread's handle lives in a slot
/// found through a pthread key; the slots are also listed (under a lock, touched only when a
/// thread first reads) so that closing or resizing the environment can abort them all while
/// it holds the map lock exclusively — no slot is in use then.
final class ReaderCache: @unchecked Sendable {
    // Safe because: a slot is used by its own thread while it holds the map lock shared, and
    // by close/resize only while they hold it exclusively; `slots` is behind a Mutex.

    /// One thread's cached transaction.
    final class Slot: @unchecked Sendable {
        // Safe because: see the cache's rule above.
        var handle: OpaquePointer?
        var inUse = false
    }

    private var key = pthread_key_t()
    private let slots = Mutex<[Slot]>([])

    init() {
        let rc = pthread_key_create(&key, nil)
        precondition(rc == 0, "pthread_key_create failed: \(rc)")
    }

    deinit {
        pthread_key_delete(key)
    }

    /// The calling thread's slot, made on its first read.
    func currentSlot() -> Slot {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<Slot>.fromOpaque(raw).takeUnretainedValue()
        }
        let slot = Slot()
        slots.withLock { $0.append(slot) }
        pthread_setspecific(key, Unmanaged.passUnretained(slot).toOpaque())
        return slot
    }

    /// Aborts every cached transaction. Call with the map lock held exclusively.
    func abortAll() {
        for slot in slots.withLock({ $0 }) {
            if let handle = slot.handle {
                mdb_txn_abort(handle)
                slot.handle = nil
            }
        }
    }
}
