// The live stream: a Watch from the revision the model reflects, applied change by change, and
// the ways to wait for it. `isLive` turns true at the first event whose `caughtUp` is set (the
// stream has delivered everything up to now) and false when the stream breaks (it resumes by
// itself, from the last revision it delivered); a stream that cannot be resumed (the session
// ended, the revision is ahead of the server's) ends with `lastError`.

import Foundation
public import WorkoutClient
import WorkoutOffline

extension WorkoutSession {
    /// Waits until the live stream is connected and caught up (``isLive``).
    ///
    /// Returns at once when it is. While the server cannot be reached the stream keeps trying
    /// with backoff, so this waits (up to `timeout`) for the server to come back.
    ///
    /// - Parameter timeout: How long to wait at most.
    /// - Throws: `WorkoutError`: `DEADLINE_EXCEEDED` after `timeout`; `FAILED_PRECONDITION`
    ///   when no member is signed in or the model is closed; `UNAUTHENTICATED` when the session
    ///   ends meanwhile; `CANCELLED` when the model is closed or the waiting task cancelled.
    public func waitUntilLive(timeout: Duration = .seconds(30)) async throws(WorkoutError) {
        if isLive { return }
        guard status == .signedIn, !isClosed, watchTask != nil else {
            throw WorkoutError(code: .failedPrecondition, message: "the session model is not signed in and watching: call resume() or login first")
        }
        let id = UUID()
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self?.resumeLiveWaiter(id, .failure(WorkoutError(code: .deadlineExceeded, message: "the session model did not catch up within \(timeout)")))
        }
        defer { timer.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WorkoutError>, Never>) in
                if isLive || Task.isCancelled {
                    continuation.resume(returning: isLive ? .success(()) : .failure(WorkoutError(code: .cancelled, message: "the wait was cancelled")))
                } else {
                    liveWaiters[id] = continuation
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in
                self?.resumeLiveWaiter(id, .failure(WorkoutError(code: .cancelled, message: "the wait was cancelled")))
            }
        }
        try result.get()
    }

    /// Resumes one waiter (once: a second resumption finds it gone).
    private func resumeLiveWaiter(_ id: UUID, _ result: Result<Void, WorkoutError>) {
        liveWaiters.removeValue(forKey: id)?.resume(returning: result)
    }

    /// Fails every waiter with `error`.
    func failLiveWaiters(_ error: WorkoutError) {
        let waiters = liveWaiters
        liveWaiters = [:]
        for waiter in waiters.values { waiter.resume(returning: .failure(error)) }
    }

    /// Catches up from a restored snapshot: the stream from its revision, marked loading.
    func catchUp() {
        set(\.isLoading, true)
        startDayClock()
        startWatching(since: revision)
    }

    /// (Re)starts the stream from `start`.
    func startWatching(since start: UInt64) {
        watchTask?.cancel()
        watchGeneration += 1
        let generation = watchGeneration
        if !connectivity.isOffline { set(\.connectivity, .connecting) }
        let events = client.watchEvents(since: start) { [weak self] interruption in
            Task { @MainActor [weak self] in
                guard let self, watchGeneration == generation else { return }
                watchInterrupted(interruption)
            }
        }
        watchTask = Task { [weak self] in
            do {
                for try await event in events {
                    guard let self, watchGeneration == generation else { return }
                    apply(event)
                }
            } catch {
                guard let self, watchGeneration == generation else { return }
                watchEnded(error)
            }
        }
    }

    private func watchEnded(_ error: any Error) {
        set(\.isLive, false)
        let failure = error as? WorkoutError ?? WorkoutError(code: .unknown, message: "\(error)")
        note(failure)
        if status == .signedIn, ![.cancelled, .outOfRange].contains(failure.code) {
            serverUnreachable(failure)
        } else if status == .signedIn {
            set(\.connectivity, .idle)
        }
        // The saved revision is ahead of the server's (restored from an older backup): start over.
        if failure.code == .outOfRange, status == .signedIn {
            Task { [weak self] in try? await self?.load() }
            return
        }
        // The stream will not come back by itself (the client closed, an event it cannot
        // read): whoever waits for live hears why now, and a later catch-up starts afresh.
        watchTask = nil
        failLiveWaiters(failure)
    }

    /// Applies a Watch event: each change in its current state, in revision order; then shows
    /// the result (only what changed).
    private func apply(_ event: WatchEvent) {
        var followUp: SessionContent.FollowUp = []
        let zoneBefore = content.profile?.timeZone
        for change in event.changes { followUp.formUnion(content.apply(change)) }
        if let eventTotals = event.totals { content.totals = eventTotals }
        revision = max(revision, event.revision)
        let caughtUpNow = event.caughtUp && !isLive
        publish()
        if !event.changes.isEmpty || event.totals != nil { scheduleSave() }
        if event.caughtUp {
            set(\.isLive, true)
            becameLive()
        }
        set(\.lastError, nil)
        if zoneBefore != nil, content.profile?.timeZone != zoneBefore { rollOverIfNeeded(force: true) }
        if followUp.contains(.week) { refreshWeek() }
        if followUp.contains(.refillWorkouts) { refillWorkouts() }
        if caughtUpNow { caughtUp() }
    }

    /// The stream has caught up: the snapshot is current, the day is checked, waiting writes go.
    private func caughtUp() {
        let wasStale = isStale
        set(\.isStale, false)
        set(\.isLoading, false)
        let waiters = liveWaiters
        liveWaiters = [:]
        for waiter in waiters.values { waiter.resume(returning: .success(())) }
        if wasStale {
            // What the feed does not carry: a new day's meals and steps, the week's sums, refills.
            rollOverIfNeeded(force: false)
            refreshWeek()
            if content.hasOlderWorkouts, content.recentWorkouts.count < Self.recentWorkoutLimit { refillWorkouts() }
            if content.achievements.isEmpty { refreshAchievements() }
        }
        if let outbox = storage?.outbox, outbox.entries.contains(where: { $0.refusal == nil }) {
            startSync()
        }
    }
}
