// Logging that falls back to the outbox: a write goes straight to the server when nothing waits
// before it, and into the outbox when the server cannot be reached (or when earlier writes still
// wait, so that it is never sent ahead of them).
public import WorkoutClient

extension WorkoutClient {
    /// Where a write went: to the server, or into the outbox.
    public enum Delivery: Sendable, Hashable {
        /// The server accepted it; its answer. (A write folded into an earlier one answers as that
        /// one: an update of a workout logged offline answers as the log that carried it.)
        case sent(SentWrite)
        /// It waits in the outbox (or cancelled a write waiting there), and why it was not sent:
        /// the server could not be reached, or it was refused after earlier writes; `nil` when
        /// there was nothing to send (``Outbox/Queued/cancelled(_:)``).
        case queued(Outbox.Queued, reason: WorkoutError?)
    }

    /// Makes a write, falling back to `outbox` when the server cannot be reached.
    ///
    /// When no write waits in `outbox` for this record and nothing waits to be sent, the write is
    /// sent as `logWorkout(_:)` and the other calls send it; if the server cannot be reached
    /// (`UNAVAILABLE`, `DEADLINE_EXCEEDED`, `RESOURCE_EXHAUSTED`), it is queued instead. When
    /// writes wait, it is queued behind them (folded where it can be) and the outbox is synced.
    ///
    /// - Parameters:
    ///   - write: The write.
    ///   - outbox: The member's outbox.
    /// - Returns: The server's answer, or what became of the write in the outbox.
    /// - Throws: `WorkoutError`: the server's refusal of a write sent directly (as the direct
    ///   call throws it, nothing queued), or the outbox's own errors (full, not writable).
    public func perform(_ write: PendingWrite, queueingIn outbox: Outbox) async throws(WorkoutError) -> Delivery {
        let waiting = outbox.entries
        let subject = write.subject
        if waiting.contains(where: { $0.refusal == nil || $0.write.subject == subject }) {
            let queued = try outbox.enqueue(write)
            guard case .queued(let entry) = queued else {
                if case .cancelled = queued { return .queued(queued, reason: nil) }
                let report = await outbox.sync(using: self)
                return Self.delivery(of: queued, in: report)
            }
            let report = await outbox.sync(using: self)
            return Self.delivery(of: .queued(entry), in: report)
        }
        let probe = DeliveryProbe()
        let result = await Self.$deliveryProbe.withValue(probe) { () async -> Result<SentWrite, WorkoutError> in
            do throws(WorkoutError) {
                return .success(try await send(write))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let answer):
            return .sent(answer)
        case .failure(let error):
            guard error.leavesWriteQueued else { throw error }
            return .queued(try outbox.enqueue(write, mayHaveBeenSent: probe.mayHaveArrived), reason: error)
        }
    }

    /// What became of `queued` in a sync's `report`.
    private static func delivery(of queued: Outbox.Queued, in report: SyncReport) -> Delivery {
        guard let entry = queued.waitingEntry else { return .queued(queued, reason: nil) }
        for result in report.results where result.entry.id == entry.id {
            switch result.outcome {
            case .sent(let answer): return .sent(answer)
            case .refused(let refusal):
                var refused = entry
                refused.refusal = refusal
                return .queued(.queued(refused), reason: refusal.error)
            case .held(let behind):
                return .queued(queued, reason: WorkoutError(
                    code: .failedPrecondition, message: "an earlier write of the same record (outbox entry \(behind)) was refused"))
            }
        }
        return .queued(queued, reason: report.stoppedBy)
    }

    /// Sends one write with the typed call that makes it (`logWorkout(_:)` for
    /// ``PendingWrite/logWorkout(_:)``, and so on), without an outbox.
    ///
    /// - Parameter write: The write.
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`, as the typed call does.
    public func send(_ write: PendingWrite) async throws(WorkoutError) -> SentWrite {
        switch write {
        case .logWorkout(let workout): .loggedWorkout(try await logWorkout(workout))
        case .updateWorkout(let workout, let revision): .updatedWorkout(try await updateWorkout(workout, expectedRevision: revision))
        case .deleteWorkout(let id): .deletedWorkout(try await deleteWorkout(id))
        case .logMeal(let meal): .loggedMeal(try await logMeal(meal))
        case .updateMeal(let meal, let revision): .updatedMeal(try await updateMeal(meal, expectedRevision: revision))
        case .deleteMeal(let id): .deletedMeal(try await deleteMeal(id))
        case .logWeight(let entry): .loggedWeight(try await logWeight(entry))
        case .updateWeight(let entry, let revision): .updatedWeight(try await updateWeight(entry, expectedRevision: revision))
        case .deleteWeight(let id): .deletedWeight(try await deleteWeight(id))
        case .reportSteps(let report): .reportedSteps(try await reportSteps(report))
        }
    }
}
