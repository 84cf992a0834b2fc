import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one session model's snapshots one at a time and never an older one over a newer one:
/// saves are numbered when they are taken (on the main actor) and written off it, possibly out
/// of order; a save older than the last one written is dropped.
final class SessionSnapshotWriter: Sendable {
    /// The number of the last save written; the lock is held while writing, so writes never overlap.
    private let lastWritten = Mutex<UInt64>(0)
    /// The number of the last save taken.
    private let lastTaken = Atomic<UInt64>(0)

    /// Numbers a save being taken now.
    func nextNumber() -> UInt64 {
        lastTaken.add(1, ordering: .relaxed).newValue
    }

    /// Writes save `number`'s bytes unless a later save was written already.
    ///
    /// - Throws: ``WorkoutError`` from the file.
    func write(_ bytes: [UInt8], number: UInt64, to file: SessionSnapshotFile) throws(WorkoutError) {
        try lastWritten.withLock { last throws(WorkoutError) in
            guard number > last else { return }
            try file.write(bytes)
            last = number
        }
    }

    /// Deletes the snapshot, and drops every save taken before (one already writing finishes
    /// first, under the lock, and is then removed): after signing out nothing of the member
    /// comes back on disk.
    ///
    /// - Parameter path: The snapshot file.
    func delete(at path: String) {
        let number = nextNumber()
        lastWritten.withLock { last in
            _ = unlink(path)
            last = max(last, number)
        }
    }
}
