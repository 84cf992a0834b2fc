// Where the session model keeps what it shows on the device, and how it saves it: after a load,
// after each batch of changes (coalesced), and on close. Saving encodes on the main actor (the
// content is bounded: 20 workouts, a day's meals, a year of weigh-ins) and writes the file off
// it, one save at a time.

import Foundation
public import WorkoutClient
public import WorkoutOffline

extension WorkoutSession {
    /// Where a session model keeps its snapshot, and the member's outbox.
    public struct Storage: Sendable {
        /// The snapshot file (its directory must exist). A temporary file beside it is used
        /// while saving.
        public var snapshotPath: String
        /// Whose data it is, as the app names the account (e.g. the member's email and the
        /// server): a snapshot of another account is never shown.
        public var account: String
        /// The member's outbox: writes made with ``WorkoutSession/perform(_:)`` wait there while
        /// the server cannot be reached, and show as pending meanwhile. `nil`: writes need the
        /// server.
        public var outbox: Outbox?
        /// The largest snapshot read or written, in bytes (at least 64 KiB; 8 MiB by default,
        /// far above what the model holds).
        public var maxSnapshotBytes: Int

        /// Makes a storage description.
        ///
        /// - Parameters:
        ///   - snapshotPath: The snapshot file.
        ///   - account: Whose data it is.
        ///   - outbox: The member's outbox, if writes may wait on the device.
        ///   - maxSnapshotBytes: The largest snapshot read or written.
        public init(snapshotPath: String, account: String, outbox: Outbox? = nil, maxSnapshotBytes: Int = 8 << 20) {
            self.snapshotPath = snapshotPath
            self.account = account
            self.outbox = outbox
            self.maxSnapshotBytes = max(64 << 10, maxSnapshotBytes)
        }

        /// The snapshot file.
        var snapshotFile: SessionSnapshotFile {
            SessionSnapshotFile(path: snapshotPath, maxBytes: maxSnapshotBytes)
        }

        /// Removes the snapshot (after signing out) through `writer`, so that no save taken
        /// before writes it back.
        func deleteSnapshot(through writer: SessionSnapshotWriter) {
            writer.delete(at: snapshotPath)
        }
    }

    /// Saves the snapshot now and returns when it is on disk (an app calls it when it goes to
    /// the background; the model also saves by itself after changes and on ``close()``).
    ///
    /// - Throws: `WorkoutError`: `FAILED_PRECONDITION` without ``storage`` or a signed-in
    ///   member with a loaded profile; `INVALID_ARGUMENT` past ``Storage/maxSnapshotBytes``;
    ///   `INTERNAL` when the file cannot be written.
    public func saveSnapshot() async throws(WorkoutError) {
        guard let save = pendingSave() else {
            throw WorkoutError(code: .failedPrecondition, message: "the session model has no storage, or nothing of a signed-in member to save")
        }
        let bytes = try save.file.encode(save.snapshot)
        try await Self.write(bytes, number: snapshotWriter.nextNumber(), with: snapshotWriter, to: save.file).get()
    }

    /// What a save writes, and where.
    private struct PendingSave {
        let file: SessionSnapshotFile
        let snapshot: SessionSnapshot
    }

    /// What a save would write now, or `nil` when there is nothing to save.
    private func pendingSave() -> PendingSave? {
        guard let storage, status == .signedIn, content.profile != nil else { return nil }
        let snapshot = SessionSnapshot(
            format: SessionSnapshot.currentFormat, account: storage.account, savedAt: now(), revision: revision, content: content)
        return PendingSave(file: storage.snapshotFile, snapshot: snapshot)
    }

    /// Saves soon: changes arriving together are saved once.
    func scheduleSave() {
        guard storage != nil, !isClosed else { return }
        saveRequested = true
        guard saveTask == nil else { return }
        saveTask = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(100))
            while let session = self, session.saveRequested, !Task.isCancelled {
                session.saveRequested = false
                guard let save = session.pendingSave() else { break }
                let result: Result<Void, WorkoutError>
                do throws(WorkoutError) {
                    let bytes = try save.file.encode(save.snapshot)
                    let writer = session.snapshotWriter
                    result = await Self.write(bytes, number: writer.nextNumber(), with: writer, to: save.file)
                } catch {
                    result = .failure(error)
                }
                if case .failure(let error) = result { self?.set(\.lastError, error) }
            }
            self?.saveTask = nil
        }
    }

    /// Saves synchronously (on ``close()``), ignoring failures other than showing them.
    func saveSnapshotNow() {
        guard let save = pendingSave() else { return }
        do throws(WorkoutError) {
            try snapshotWriter.write(try save.file.encode(save.snapshot), number: snapshotWriter.nextNumber(), to: save.file)
        } catch {
            set(\.lastError, error)
        }
    }

    /// Writes a snapshot's bytes off the main actor, through the model's writer (in order).
    private nonisolated static func write(
        _ bytes: [UInt8], number: UInt64, with writer: SessionSnapshotWriter, to file: SessionSnapshotFile
    ) async -> Result<Void, WorkoutError> {
        await Task.detached(priority: .utility) { () -> Result<Void, WorkoutError> in
            do throws(WorkoutError) {
                try writer.write(bytes, number: number, to: file)
                return .success(())
            } catch {
                return .failure(error)
            }
        }.value
    }
}
