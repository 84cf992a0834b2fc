import Dispatch
import SwiftProtobuf
import WorkoutCore
import WorkoutProtocol

/// Server streaming: `Streams.Watch` (one's changes since a revision, then live) and
/// `Streams.Export` (all of one's data in chunks).
extension Connection {
    func startStream(_ kind: StreamKind, callID: UInt32, body: [UInt8], context requestContext: RequestContext) {
        guard let caller = requestContext.caller else { return }
        switch kind {
        case .watch:
            let request: Workout_V1_WatchRequest
            do {
                request = try decode(Workout_V1_WatchRequest.self, body)
            } catch {
                failStream(callID, error)
                return
            }
            let watch = WatchState(caller: caller, cursor: request.sinceRevision, startedAt: DispatchTime.now().uptimeNanoseconds)
            watches[callID] = watch
            // Subscribe before the first read, so no commit falls between the two.
            watch.subscription = context.household.changeNotifier.subscribe(caller.userID) { [weak self] in
                guard let self else { return }
                queue.async { self.pump(callID) }
            }
            pump(callID, catchingUp: true)
        case .export:
            do {
                let chunks = try context.household.export(caller)
                for chunk in chunks {
                    send(.streamMessage, callID: callID, body: try chunk.serializedBytes())
                }
                guard let call = calls.removeValue(forKey: callID) else { return }
                call.deadline?.cancel()
                finish(callID, method: call.method, startedAt: call.startedAt, isStream: true, .success(.reply([])))
            } catch {
                failStream(callID, error)
            }
        }
    }

    /// Sends the changes a watch has not seen yet, a page per event.
    private func pump(_ callID: UInt32, catchingUp: Bool = false) {
        guard let watch = watches[callID], phase != .closed else { return }
        do {
            var sentAny = false
            while true {
                var request = Workout_V1_ChangesRequest()
                request.sinceRevision = watch.cursor
                request.pageSize = 100
                let page = try context.household.changes(watch.caller, request)
                if page.changes.isEmpty && (sentAny || !catchingUp) { break }
                var event = Workout_V1_WatchEvent()
                event.changes = page.changes
                event.revision = page.revision
                if !watch.sentTotals || !page.changes.isEmpty {
                    event.totals = page.totals
                    watch.sentTotals = true
                }
                event.caughtUp = catchingUp && !page.hasMore_p
                send(.streamMessage, callID: callID, body: try event.serializedBytes())
                watch.cursor = page.revision
                sentAny = true
                if !page.hasMore_p { break }
            }
            flush()
        } catch {
            failStream(callID, error)
            flush()
        }
    }

    /// Ends a stream with an error.
    private func failStream(_ callID: UInt32, _ error: any Error) {
        endStream(callID)
        guard let call = calls.removeValue(forKey: callID) else { return }
        call.deadline?.cancel()
        finish(callID, method: call.method, startedAt: call.startedAt, isStream: true, .failure(error))
    }

    /// Stops a stream's subscription (its final frame is sent by the caller).
    func endStream(_ callID: UInt32) {
        guard let watch = watches.removeValue(forKey: callID) else { return }
        if let subscription = watch.subscription {
            context.household.changeNotifier.cancel(subscription, user: watch.caller.userID)
        }
    }

    /// Ends every watch: with a STREAM_END of `status` when given, silently when closing.
    func endWatch(status: StatusCode? = nil, message: String = "") {
        for callID in Array(watches.keys) {
            endStream(callID)
            guard let status, let call = calls.removeValue(forKey: callID) else { continue }
            call.deadline?.cancel()
            let result: Result<HandlerOutcome, any Error> = status == .ok ? .success(.reply([])) : .failure(CallFailure(status, message))
            finish(callID, method: call.method, startedAt: call.startedAt, isStream: true, result)
        }
    }

    /// Ends watches open longer than the configured maximum; the client resumes from its revision.
    func expireStreams(now: UInt64) {
        let limit = UInt64(context.configuration.maxStreamDuration.milliseconds) * 1_000_000
        for (callID, watch) in watches where now - watch.startedAt >= limit {
            endStream(callID)
            if let call = calls.removeValue(forKey: callID) {
                call.deadline?.cancel()
                finish(callID, method: call.method, startedAt: call.startedAt, isStream: true, .success(.reply([])))
            }
        }
        flush()
    }
}
