import Synchronization
import WorkoutClient
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
///
/// The rules, and why they hold:
/// 1. Writes never overlap: a writer holds ``lastWritten``'s lock while it writes (and syncs).
///    Only writers take it — the background saves, and the synchronous save on `close()` — never
///    a sign-out, so the main actor's ``delete(at:)`` does not wait behind a save's `fsync`.
/// 2. A deletion drops every save taken before it without that lock: it raises
///    ``deletedThrough`` first, then unlinks the file. A writer checks it before writing, and
///    again after its rename: a deletion that came in between (it raised the number after the
///    first check) is either seen by the second check, and the writer unlinks its own file, or
///    raised it after that check, and its own unlink comes after the rename. Either way nothing
///    of a signed-out member stays on disk.
final class SessionSnapshotWriter: Sendable {
    /// The number of the last save written; its lock is held while writing, so writes never
    /// overlap (rule 1).
    private let lastWritten = Mutex<UInt64>(0)
    /// The number of the last save taken.
    private let lastTaken = Atomic<UInt64>(0)
    /// Saves numbered up to this one were taken before a deletion and are dropped (rule 2).
    private let deletedThrough = Atomic<UInt64>(0)

    /// Numbers a save being taken now.
    func nextNumber() -> UInt64 {
        lastTaken.add(1, ordering: .relaxed).newValue
    }

    /// Writes save `number`'s bytes unless a later save was written already, or the snapshot
    /// was deleted after it was taken.
    ///
    /// - Throws: `WorkoutError` from the file.
    func write(_ bytes: [UInt8], number: UInt64, to file: SessionSnapshotFile) throws(WorkoutError) {
        try lastWritten.withLock { last throws(WorkoutError) in
            guard number > last, number > deletedThrough.load(ordering: .sequentiallyConsistent) else { return }
            try file.write(bytes)
            last = number
            if number <= deletedThrough.load(ordering: .sequentiallyConsistent) { _ = unlink(file.path) }
        }
    }

    /// Deletes the snapshot, and drops every save taken before (one already writing removes its
    /// own file after its rename): after signing out nothing of the member comes back on disk.
    ///
    /// - Parameter path: The snapshot file.
    func delete(at path: String) {
        deletedThrough.max(nextNumber(), ordering: .sequentiallyConsistent)
        _ = unlink(path)
    }
}
