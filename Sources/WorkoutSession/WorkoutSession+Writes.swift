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
        let delivery: WorkoutClient.Delivery
        do throws(WorkoutError) {
            if let outbox = storage?.outbox {
                delivery = try await guarded { try await $0.perform(write, queueingIn: outbox) }
            } else {
                delivery = .sent(try await guarded { try await $0.send(write) })
            }
        } catch {
            inFlight.removeAll { $0.id == token }
            publish()
            throw error
        }
        inFlight.removeAll { $0.id == token }
        switch delivery {
        case .sent(let answer):
            applyAnswer(answer, of: write)
        case .queued(_, let reason):
            writeFoundServerUnreachable(reason)
            publish()
        }
        return delivery
    }

    /// Sends the writes waiting in the outbox now, and shows the server's answers.
    ///
    /// - Returns: What became of each write; `nil` without an outbox.
    /// - Returns: What became of each write; `nil` without an outbox.
    @discardableResult
    public func sync() async -> SyncReport? {
        guard let outbox = storage?.outbox else { return nil }
        let report = await outbox.sync(using: client)
        for result in report.results {
            if case .sent(let answer) = result.outcome { applyAnswer(answer, of: result.entry.write) }
        }
        if let stop = report.stoppedBy {
            if stop.code == .unauthenticated { note(stop) } else { writeFoundServerUnreachable(stop) }
        }
        publish()
        return report
    }

    /// Syncs in the background, one sync at a time.
    func startSync() {
        guard syncTask == nil, !isClosed else { return }
        syncTask = Task { [weak self] in
            _ = await self?.sync()
            self?.syncTask = nil
        }
    }

    /// Applies the server's answer to a write, and what it calls for.
    func applyAnswer(_ answer: SentWrite, of write: PendingWrite) {
        let followUp = content.apply(answer, of: write)
        publish()
        scheduleSave()
        if followUp.contains(.week) { refreshWeek() }
        if followUp.contains(.refillWorkouts) { refillWorkouts() }
    }

    /// Logs a workout; the model shows it, the new totals and any achievement at once.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func log(_ workout: Workout) async throws(WorkoutError) -> LoggedWorkout {
        let logged = try await guarded { try await $0.logWorkout(workout) }
        applyAnswer(.loggedWorkout(logged), of: .logWorkout(workout))
        return logged
    }

    /// Logs a meal; today's meals show it at once when it is today's.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func log(_ meal: Meal) async throws(WorkoutError) -> LoggedMeal {
        let logged = try await guarded { try await $0.logMeal(meal) }
        applyAnswer(.loggedMeal(logged), of: .logMeal(meal))
        return logged
    }

    /// Logs a weigh-in; the series (and the profile's weight, when newest) shows it at once.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func log(_ entry: WeightEntry) async throws(WorkoutError) -> LoggedWeight {
        let logged = try await guarded { try await $0.logWeight(entry) }
        applyAnswer(.loggedWeight(logged), of: .logWeight(entry))
        return logged
    }

    /// Reports steps; today's figure shows it at once when it is today's.
    ///
    /// - Returns: The server's answer.
    /// - Throws: `WorkoutError`.
    @discardableResult
    public func report(_ steps: StepsReport) async throws(WorkoutError) -> StepsUpdate {
        let update = try await guarded { try await $0.reportSteps(steps) }
        applyAnswer(.reportedSteps(update), of: .reportSteps(steps))
        return update
    }

    /// Deletes a workout; the model drops it, takes back its totals and refills the list.
    ///
    /// - Throws: `WorkoutError`.
    public func deleteWorkout(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteWorkout(id) }
        applyAnswer(.deletedWorkout(deleted), of: .deleteWorkout(id))
    }

    /// Deletes a meal; today's meals drop it at once.
    ///
    /// - Throws: `WorkoutError`.
    public func deleteMeal(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteMeal(id) }
        applyAnswer(.deletedMeal(deleted), of: .deleteMeal(id))
    }

    /// Deletes a weigh-in; the series drops it at once.
    ///
    /// - Throws: `WorkoutError`.
    public func deleteWeight(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteWeight(id) }
        applyAnswer(.deletedWeight(deleted), of: .deleteWeight(id))
    }
}
