// Writing through the session model: the typed calls (which need the server) and `perform`,
// which goes through the member's outbox and shows the write at once, pending, until the
// server's answer replaces the guess. Either way the answer is applied to what the model shows,
// so the echo of the write arriving later over Watch changes nothing.

public import Foundation
public import WorkoutClient
public import WorkoutOffline

extension WorkoutSession {
    /// Makes a write through the member's outbox (``Storage/outbox``): it shows at once, as
    /// pending (``pendingRecordIDs``), merged in the way the server will apply it; it goes to the
    /// server now if it can be reached and waits in the outbox if not (sent when the live stream
    /// catches up, or by ``sync()``). While ``connectivity`` is
    /// ``Connectivity/unreachable(lastError:since:)`` it is queued at once, without trying the
    /// server. Without an outbox, the write is sent directly.
    ///
    /// The figures move once: the server's answer (with the week read again when the write
    /// changes it, and any earlier writes the call sent) replaces the guess in one step.
    ///
    /// - Parameter write: The write, with its record's client-generated id.
    /// - Returns: The server's answer, or what became of the write in the outbox.
    /// - Throws: `WorkoutError`: the server's refusal of a write sent directly (nothing
    ///   queued), or the outbox's own errors (full, not writable).
    @discardableResult
    public func perform(_ write: PendingWrite) async throws(WorkoutError) -> WorkoutClient.Delivery {
        let token = UUID()
        inFlight.append((token, write))
        publish()
        if let outbox = storage?.outbox, case .unreachable(let lastError, _) = connectivity {
            // Known offline: no connection attempt (the stream's reconnecting finds the server back).
            defer {
                inFlight.removeAll { $0.id == token }
                publish()
            }
            let queued = try outbox.enqueue(write)
            return .queued(queued, reason: queued.waitingEntry == nil ? nil : lastError)
        }
        // Earlier writes the call sends leave the outbox before their answers are applied: the
        // figures are held until the answers and the week are in.
        holdFigures()
        let delivery: WorkoutClient.Delivery
        do throws(WorkoutError) {
            if let outbox = storage?.outbox {
                delivery = try await guarded { try await $0.perform(write, queueingIn: outbox) }
            } else {
                delivery = .sent(try await guarded { try await $0.send(write) })
            }
        } catch {
            inFlight.removeAll { $0.id == token }
            releaseFigures()
            throw error
        }
        inFlight.removeAll { $0.id == token }
        switch delivery {
        case .sent(let answer):
            await settle([(answer, write)])
        case .queued(_, let reason):
            writeFoundServerUnreachable(reason)
        }
        releaseFigures()
        return delivery
    }

    /// Sends the writes waiting in the outbox now, and shows the server's answers.
    ///
    /// - Returns: What became of each write; `nil` without an outbox.
    /// The figures (totals, week, today) are held while the writes are sent, and show the
    /// outcome once: never the state in between, where a write has left the outbox and its
    /// answer is not counted yet.
    ///
    /// - Returns: What became of each write; `nil` without an outbox.
    @discardableResult
    public func sync() async -> SyncReport? {
        guard let outbox = storage?.outbox else { return nil }
        holdFigures()
        let report = await outbox.sync(using: client)
        await settle(report.results.compactMap { result in
            if case .sent(let answer) = result.outcome { (answer, result.entry.write) } else { nil }
        })
        if let stop = report.stoppedBy {
            if stop.code == .unauthenticated { note(stop) } else { writeFoundServerUnreachable(stop) }
        }
        releaseFigures()
        return report
    }

    /// Holds what the model shows: ``publish()`` shows nothing until the matching
    /// ``releaseFigures()`` (holds nest).
    func holdFigures() {
        figuresHeld += 1
    }

    /// Ends a hold, and shows what changed meanwhile when it was the last.
    func releaseFigures() {
        figuresHeld -= 1
        if figuresHeld == 0 { publish() }
    }

    /// Applies the server's answers to writes, while the figures are held; when they change the
    /// week, reads the week again (a week read before they arrived is not applied), so that the
    /// figures move once.
    func settle(_ answers: [(answer: SentWrite, write: PendingWrite)]) async {
        guard !answers.isEmpty else { return }
        var followUp: SessionContent.FollowUp = []
        for (answer, write) in answers { followUp.formUnion(content.apply(answer, of: write)) }
        scheduleSave()
        if followUp.contains(.week) { await readWeekNow() }
        if followUp.contains(.refillWorkouts) { refillWorkouts() }
    }

    /// Syncs in the background, one sync at a time.
    func startSync() {
        guard syncTask == nil, !isClosed else { return }
        syncTask = Task { [weak self] in
            _ = await self?.sync()
            self?.syncTask = nil
        }
    }

    /// Applies the server's answer to a typed call's write, and what it calls for, as
    /// ``perform(_:)`` does: the figures move once, with the week read again when the write
    /// changes it, before the call returns.
    func applyAnswer(_ answer: SentWrite, of write: PendingWrite) async {
        holdFigures()
        await settle([(answer, write)])
        releaseFigures()
    }

    /// Logs a workout; the model shows it, the new totals, the week and any achievement in one
    /// step, before this returns (the figures move once, as with ``perform(_:)``).
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func log(_ workout: Workout) async throws(WorkoutError) -> LoggedWorkout {
        let logged = try await guarded { try await $0.logWorkout(workout) }
        await applyAnswer(.loggedWorkout(logged), of: .logWorkout(workout))
        return logged
    }

    /// Logs a meal; today's meals show it at once when it is today's.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func log(_ meal: Meal) async throws(WorkoutError) -> LoggedMeal {
        let logged = try await guarded { try await $0.logMeal(meal) }
        await applyAnswer(.loggedMeal(logged), of: .logMeal(meal))
        return logged
    }

    /// Logs a weigh-in; the series (and the profile's weight, when newest) shows it at once.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func log(_ entry: WeightEntry) async throws(WorkoutError) -> LoggedWeight {
        let logged = try await guarded { try await $0.logWeight(entry) }
        await applyAnswer(.loggedWeight(logged), of: .logWeight(entry))
        return logged
    }

    /// Reports steps; today's figure shows it at once when it is today's.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func report(_ steps: StepsReport) async throws(WorkoutError) -> StepsUpdate {
        let update = try await guarded { try await $0.reportSteps(steps) }
        await applyAnswer(.reportedSteps(update), of: .reportSteps(steps))
        return update
    }

    /// Deletes a workout; the model drops it, takes back its totals and refills the list.
    ///
    /// - Throws: `WorkoutError`.
    public func deleteWorkout(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteWorkout(id) }
        await applyAnswer(.deletedWorkout(deleted), of: .deleteWorkout(id))
    }

    /// Deletes a meal; today's meals drop it at once.
    ///
    /// - Throws: `WorkoutError`.
    public func deleteMeal(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteMeal(id) }
        await applyAnswer(.deletedMeal(deleted), of: .deleteMeal(id))
    }

    /// Deletes a weigh-in; the series drops it at once.
    ///
    /// - Throws: `WorkoutError`.
    public func deleteWeight(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteWeight(id) }
        await applyAnswer(.deletedWeight(deleted), of: .deleteWeight(id))
    }
}
