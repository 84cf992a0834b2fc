// Sending what waits: in windows of writes, each window first marked as "may have been sent"
// durably (one fsync), so that an edit made while it is on the way (or after a crash in the
// middle) is queued after it instead of folded into content the server may already hold. A
// write the server accepted is removed without an fsync of its own: should the removal be lost
// in a crash, the write is sent again and the server answers `replayed`.
public import WorkoutClient

extension Outbox {
    /// How many writes are marked as being sent with one fsync.
    static let sendingWindow = 64

    /// Sends the waiting writes through `client`, oldest first, one at a time.
    ///
    /// - A write the server accepts (or had accepted before) leaves the outbox.
    /// - A write it refuses stays with its reason (``OutboxEntry/refusal``); later writes go on,
    ///   except those of the same record, which wait behind it (``SyncReport/Outcome/held(behind:)``).
    ///   A refusal of the session or account (`UNAUTHENTICATED`, `PERMISSION_DENIED`) stops the
    ///   sync, since every other write would be refused the same way.
    /// - A server that cannot be reached (or does not answer in time, or is overloaded) stops the
    ///   sync: that write and all after it stay queued in order for the next sync.
    /// - Refused writes are not sent again until ``retry(_:)``.
    ///
    /// One sync runs at a time; a second one started meanwhile returns at once with
    /// `FAILED_PRECONDITION` as its ``SyncReport/stoppedBy``.
    ///
    /// - Parameter client: A client signed in to the outbox's account.
    /// - Returns: What became of each write.
    public func sync(using client: WorkoutClient) async -> SyncReport {
        let started = state.withLock { state -> WorkoutError? in
            if state.log == nil { return closed() }
            if state.isSyncing { return WorkoutError(code: .failedPrecondition, message: "the outbox is already being synced") }
            state.isSyncing = true
            return nil
        }
        if let started { return SyncReport(results: [], stoppedBy: started, remaining: entries) }
        var results: [SyncReport.Result] = []
        var stop: WorkoutError?
        var after: UInt64 = 0
        var refusedSubjects = Set<PendingWrite.Subject>()
        sending: while stop == nil {
            let window: [OutboxEntry]
            do throws(WorkoutError) {
                window = try state.withLock { state throws(WorkoutError) -> [OutboxEntry] in
                    let window = Self.sendable(in: state.contents.entries, after: after).prefix(Self.sendingWindow)
                    let marking = window.filter { !$0.mayHaveBeenSent }.map(\.id)
                    if !marking.isEmpty { try append([.sending(ids: marking)], to: &state, sync: true) }
                    return window.compactMap { state.contents.entry($0.id) }
                }
            } catch {
                stop = error
                break
            }
            if window.isEmpty { break }
            for (index, planned) in window.enumerated() {
                after = planned.id
                // Discarded meanwhile? (A write marked as being sent is never folded into.)
                guard let entry = state.withLock({ $0.contents.entry(planned.id) }) else { continue }
                // Behind a write of the same record refused in this window: it waits (held).
                if refusedSubjects.contains(entry.write.subject) {
                    do throws(WorkoutError) {
                        try state.withLock { state throws(WorkoutError) in try append([.notSent(ids: [entry.id])], to: &state, sync: false) }
                    } catch {
                        stop = error
                        break sending
                    }
                    continue
                }
                let probe = DeliveryProbe()
                let outcome = await WorkoutClient.$deliveryProbe.withValue(probe) { () async -> Result<SentWrite, WorkoutError> in
                    do throws(WorkoutError) {
                        return .success(try await client.send(entry.write))
                    } catch {
                        return .failure(error)
                    }
                }
                // Those after it in the window were not sent; nor was it, unless it may have arrived.
                let unsent = (probe.mayHaveArrived ? [] : [entry.id]) + window[(index + 1)...].map(\.id)
                do throws(WorkoutError) {
                    switch outcome {
                    case .success(let answer):
                        try state.withLock { state throws(WorkoutError) in try append([.removed(id: entry.id)], to: &state, sync: false) }
                        results.append(.init(entry: entry, outcome: .sent(answer)))
                    case .failure(let error) where error.leavesWriteQueued:
                        try state.withLock { state throws(WorkoutError) in
                            try append(unsent.isEmpty ? [] : [.notSent(ids: unsent)], to: &state, sync: false)
                        }
                        stop = error
                        break sending
                    case .failure(let error):
                        let refusal = WriteRefusal(error)
                        refusedSubjects.insert(entry.write.subject)
                        var refused = entry
                        refused.refusal = refusal
                        let later = Array(window[(index + 1)...].map(\.id))
                        try state.withLock { state throws(WorkoutError) in
                            try append([.refused(id: entry.id, refusal: refusal)], to: &state, sync: false)
                            if refusal.concernsAccount, !later.isEmpty { try append([.notSent(ids: later)], to: &state, sync: false) }
                        }
                        results.append(.init(entry: refused, outcome: .refused(refusal)))
                        if refusal.concernsAccount {
                            stop = error
                            break sending
                        }
                    }
                } catch {
                    stop = error
                    break sending
                }
            }
        }
        let remaining = state.withLock { state -> [OutboxEntry] in
            state.isSyncing = false
            if state.log != nil {
                do throws(WorkoutError) {
                    try state.log!.sync()
                    try Self.compactIfWorthIt(&state.log!, state.contents)
                } catch {
                    if stop == nil { stop = error }
                }
            }
            return state.contents.entries
        }
        for (entry, refused) in Self.held(in: remaining) {
            results.append(.init(entry: entry, outcome: .held(behind: refused)))
        }
        return SyncReport(results: results, stoppedBy: stop, remaining: remaining)
    }

    /// The writes after id `after` that a sync may send: not refused, and not of a record (or
    /// steps day and source) with a refused write before them.
    static func sendable(in entries: [OutboxEntry], after: UInt64) -> [OutboxEntry] {
        var blocked = Set<PendingWrite.Subject>()
        var sendable: [OutboxEntry] = []
        for entry in entries {
            if entry.refusal != nil {
                blocked.insert(entry.write.subject)
                continue
            }
            guard entry.id > after, !blocked.contains(entry.write.subject) else { continue }
            sendable.append(entry)
        }
        return sendable
    }

    /// The waiting writes held behind a refused write of the same record, with that write's id.
    static func held(in entries: [OutboxEntry]) -> [(OutboxEntry, UInt64)] {
        var refused: [PendingWrite.Subject: UInt64] = [:]
        var held: [(OutboxEntry, UInt64)] = []
        for entry in entries {
            if entry.refusal != nil {
                if refused[entry.write.subject] == nil { refused[entry.write.subject] = entry.id }
            } else if let behind = refused[entry.write.subject] {
                held.append((entry, behind))
            }
        }
        return held
    }
}
