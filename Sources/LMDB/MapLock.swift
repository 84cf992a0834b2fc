#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Keeps transactions out of the memory map while it is being resized.
///
/// liblmdb's `mdb_env_set_mapsize` "may be called at later times if no transactions are
/// active in this process. Note that the library does not check for this condition, the
/// caller must ensure it explicitly." (lmdb.h). Every transaction therefore holds this lock
/// shared; a resize (and closing the environment) holds it exclusively.
///
/// The lock prefers writers where the platform allows it, so a resize is not starved by a
/// steady stream of short reads. To keep that from deadlocking a thread that opens a
/// transaction inside another one, each thread counts its own shared holds and only the
/// outermost takes the lock.
final class MapLock: @unchecked Sendable {
    // Safe because: `lock` is a pthread rwlock, thread-safe by definition; `depthKey` is a
    // pthread key whose per-thread value only its own thread reads and writes.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var depthKey = pthread_key_t()

    init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if os(Linux)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        let rc = pthread_rwlock_init(lock, &attributes)
        precondition(rc == 0, "pthread_rwlock_init failed: \(rc)")
        pthread_rwlockattr_destroy(&attributes)
        let keyRC = pthread_key_create(&depthKey, nil)
        precondition(keyRC == 0, "pthread_key_create failed: \(keyRC)")
    }

    deinit {
        pthread_key_delete(depthKey)
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    private var depth: Int {
        get { Int(bitPattern: pthread_getspecific(depthKey)) }
        set { pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: newValue)) }
    }

    /// Whether the calling thread holds the lock shared (used to refuse a resize from
    /// inside a transaction, which would deadlock).
    var isHeldSharedByCurrentThread: Bool { depth > 0 }

    /// Runs `body` with the lock held shared.
    func withShared<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let outer = depth == 0
        if outer { pthread_rwlock_rdlock(lock) }
        depth += 1
        defer {
            depth -= 1
            if outer { pthread_rwlock_unlock(lock) }
        }
        return try body()
    }

    /// Runs `body` with this thread's shared hold let go (it must be the only one), then takes
    /// it back: for adopting another process's map resize from inside `withShared`.
    ///
    /// - Throws: ``LMDBError`` `mapResized` when the thread holds the lock more than once (a
    ///   transaction inside another), which cannot wait for the resize.
    func releasingShared<R>(_ body: () throws -> R) throws -> R {
        guard depth == 1 else {
            throw LMDBError(
                code: .mapResized, operation: "mdb_txn_begin",
                message: "another process grew the map while this thread has a transaction open; retry")
        }
        depth = 0
        pthread_rwlock_unlock(lock)
        defer {
            pthread_rwlock_rdlock(lock)
            depth = 1
        }
        return try body()
    }

    /// Runs `body` with the lock held exclusively. Must not be called by a thread that
    /// holds the lock shared.
    func withExclusive<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        precondition(depth == 0, "a map resize or close was requested from inside a transaction")
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
