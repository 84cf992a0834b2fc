import SwiftProtobuf
import WorkoutCore
import WorkoutProtocol

/// Server streaming: `Streams.Watch` (one's changes since a revision, then live) and
/// `Streams.Export` (all of one's data in chunks). Producers send only while the machine says
/// the output has room (``Connection/canProduce(_:)``); the machine's `resumeProducing` brings
/// them back when the peer has drained it.
extension Connection {
    func startStream(_ kind: StreamKind, callID: UInt32, body: [UInt8], context requestContext: RequestContext) {
        guard let caller = requestContext.caller else {
            // The machine runs streams only with a session; answer rather than leave the call hanging.
            callFinished(callID, .failure(CallFailure(.unauthenticated, "this method needs a session")))
            return
        }
        switch kind {
        case .watch:
            let request: Workout_V1_WatchRequest
            do {
                request = try decode(Workout_V1_WatchRequest.self, body)
            } catch {
                callFinished(callID, .failure(error))
                return
            }
            let watch = WatchState(caller: caller, cursor: request.sinceRevision)
            adopt(callID, .watch(watch))
            // Subscribe before the first read, so no commit falls between the two.
            watch.subscription = context.household.changeNotifier.subscribe(caller.userID) { [weak self] in
                guard let self else { return }
                queue.async {
                    self.pump(callID)
                    self.flush()
                }
            }
            pump(callID)
        case .export:
            do {
                let producer = ExportProducer(
                    household: context.household, cursor: try context.household.beginExport(caller),
                    maxChunkBytes: min(256 << 10, peerMaxFrameSize))
                adopt(callID, .export(producer))
                produceExport(callID)
            } catch {
                callFinished(callID, .failure(error))
            }
        }
    }

    /// The bytes an event keeps for today's progress beside its page of changes.
    static let todayProgressRoom = 1_024

    /// Sends the changes a watch has not sent yet, a page per event (at most 100 changes, and
    /// no more than fit the client's max frame size), while there is room.
    func pump(_ callID: UInt32) {
        guard case .watch(let watch)? = work(of: callID) else { return }
        do {
            while canProduce(callID) {
                var request = Workout_V1_ChangesRequest()
                request.sinceRevision = watch.cursor
                request.pageSize = 100
                // An event has the fields of a Changes page (caught_up for has_more), so a page
                // that fits the client's frame makes an event that fits it too.
                // Room is kept for today's progress (five goals, well under a kilobyte).
                let page = try context.household.changes(watch.caller, request, maxResponseBytes: peerMaxFrameSize - Self.todayProgressRoom)
                // The backlog ends with one event marked caught up, changes or not.
                if page.changes.isEmpty && watch.caughtUp { break }
                var event = Workout_V1_WatchEvent()
                event.changes = page.changes
                event.revision = page.revision
                // Totals in the first event, then only when they changed (a meal or a weigh-in
                // leaves them as they were).
                if watch.sentTotals != page.totals {
                    event.totals = page.totals
                    watch.sentTotals = page.totals
                }
                // Today's progress likewise: first, then when it changed. Only an event with
                // changes can have changed it, so an empty one reads nothing more.
                if watch.sentToday == nil || !page.changes.isEmpty {
                    let today = try context.household.todayProgress(watch.caller)
                    if watch.sentToday != today {
                        event.today = today
                        watch.sentToday = today
                    }
                }
                if !watch.caughtUp && !page.hasMore_p {
                    event.caughtUp = true
                    watch.caughtUp = true
                }
                watch.cursor = page.revision
                streamMessage(callID, try event.serializedBytes())
                if !page.hasMore_p { break }
            }
        } catch {
            callFinished(callID, .failure(error))
        }
    }

    /// Sends export chunks while there is room; ends the stream OK after the last.
    func produceExport(_ callID: UInt32) {
        guard case .export(let producer)? = work(of: callID) else { return }
        do {
            while canProduce(callID) {
                guard let chunk = try producer.next() else {
                    callFinished(callID, .success(.reply([])))
                    return
                }
                streamMessage(callID, try chunk.serializedBytes())
            }
        } catch {
            callFinished(callID, .failure(error))
        }
    }

    /// Stops a Watch's subscription.
    func endSubscription(of watch: WatchState) {
        if let subscription = watch.subscription {
            context.household.changeNotifier.cancel(subscription, user: watch.caller.userID)
            watch.subscription = nil
        }
    }
}
