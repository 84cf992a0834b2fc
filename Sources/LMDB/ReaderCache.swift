internal import CLMDB
import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Keeps one reset read-only transaction per thread and environment, so a read costs
/// `mdb_txn_renew` and `mdb_txn_reset`: no allocation, and no lock shared with other
/// threads.
///
/// lmdb.h: with `MDB_NOTLS` "a thread may use parallel read-only transactions", and a reset
/// transaction "can be reused with mdb_txn_renew()". A thread finds its slot through a
/// thread-local table keyed by the cache's serial number — a number never reused in the
/// process, so a thread can never reach the slot of a closed environment through a newer
/// one. When a thread exits, its slots go back to their caches' free lists for other
/// threads (a reset transaction belongs to no thread), so the number of cached
/// transactions stays at the number of threads that read at the same time.
///
/// Every slot is listed by its cache, so closing or resizing the environment — which
/// holds the map lock exclusively, when no slot is in use — can abort them all.
final class ReaderCache: @unchecked Sendable {
    // Safe because: a slot is used by the one thread that took it, while it holds the map
    // lock shared; `abortAll` runs only with the map lock held exclusively. The slot lists
    // are behind a Mutex.

    /// One thread's cached transaction.
    final class Slot: @unchecked Sendable {
        // Safe because: see the cache's rule above.
        /// The reset (or, while `inUse`, live) transaction; `nil` until the first read.
        var handle: OpaquePointer?
        /// Set while a read uses the handle (a nested read on the same thread begins its own).
        var inUse = false
    }

    private struct Lists {
        var all: [Slot] = []
        var free: [Slot] = []
        var isClosed = false
    }

    private let serial: Int
    private let lists = Mutex(Lists())

    private static let nextSerial = Atomic<Int>(0)

    init() {
        serial = Self.nextSerial.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The calling thread's slot, taken on its first read.
    func currentSlot() -> Slot {
        let table = ThreadReaderTable.current
        if let slot = table.slots[serial] { return slot }
        let slot = lists.withLock { lists -> Slot in
            if let free = lists.free.popLast() { return free }
            let slot = Slot()
            lists.all.append(slot)
            return slot
        }
        table.slots[serial] = slot
        table.owners[serial] = WeakReaderCache(cache: self)
        return slot
    }

    /// Aborts every cached transaction. Call with the map lock held exclusively.
    ///
    /// - Parameter closing: whether the environment is closing (no slot is handed out again).
    func abortAll(closing: Bool) {
        let slots = lists.withLock { lists in
            if closing { lists.isClosed = true }
            return lists.all
        }
        for slot in slots {
            if let handle = slot.handle {
                mdb_txn_abort(handle)
                slot.handle = nil
            }
        }
    }

    /// Takes back the slot of a thread that exited.
    fileprivate func giveBack(_ slot: Slot) {
        lists.withLock { lists in
            if !lists.isClosed && !slot.inUse { lists.free.append(slot) }
        }
    }
}

/// A cache that a thread's table does not keep alive.
private struct WeakReaderCache {
    weak var cache: ReaderCache?
}

/// One thread's slots, by cache serial number; released (and the slots given back) when
/// the thread exits.
private final class ThreadReaderTable {
    var slots: [Int: ReaderCache.Slot] = [:]
    var owners: [Int: WeakReaderCache] = [:]

    /// The calling thread's table, made on first use.
    static var current: ThreadReaderTable {
        if let raw = pthread_getspecific(threadKey) {
            return Unmanaged<ThreadReaderTable>.fromOpaque(raw).takeUnretainedValue()
        }
        let table = ThreadReaderTable()
        pthread_setspecific(threadKey, Unmanaged.passRetained(table).toOpaque())
        return table
    }

    deinit {
        for (serial, slot) in slots {
            owners[serial]?.cache?.giveBack(slot)
        }
    }
}

/// The process's one key for the thread tables; its destructor releases a table at thread exit.
private let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Glibc)
    let rc = pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<ThreadReaderTable>.fromOpaque(raw).release()
    }
    #else
    let rc = pthread_key_create(&key) { raw in
        Unmanaged<ThreadReaderTable>.fromOpaque(raw).release()
    }
    #endif
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
