import SwiftProtobuf
import WorkoutProtocol

extension WorkoutClient {
    /// The member's changes, live: first everything after `revision` (ending with an
    /// event whose `caughtUp` is true), then one event per write, from any device.
    ///
    /// The stream survives lost connections and server restarts: it reconnects with
    /// backoff and resumes from the last revision it delivered, so nothing is missed or
    /// repeated. It never ends by itself; it ends:
    /// - with a ``WorkoutError`` that resuming cannot fix: `UNAUTHENTICATED` for a revoked or
    ///   expired session, `OUT_OF_RANGE` when `revision` is ahead of the server (sync again
    ///   from 0), `CANCELLED` when the client was closed;
    /// - with `CANCELLED` when the task iterating it is cancelled;
    /// - quietly when the loop stops iterating (`break`).
    ///
    /// ```swift
    /// let watching = Task {
    ///     do throws(WorkoutError) {
    ///         for try await event in client.watch(since: revision) {
    ///             apply(event.changes)
    ///             if let totals = event.totals { show(totals) }
    ///         }
    ///     } catch where error.code == .cancelled {
    ///         // watching.cancel() was called
    ///     } catch {
    ///         showBanner(error.message)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter revision: The last revision already applied (0: everything).
    /// - Returns: The events.
    public func watch(since revision: UInt64) -> WorkoutStream<WatchEvent> {
        watchEvents(since: revision, onInterruption: nil)
    }

    /// ``watch(since:)``, telling `onInterruption` each time the stream broke and is
    /// about to be resumed, and whether no connection could be opened at all (a session model
    /// shows "reconnecting" or "unreachable" until the next `caughtUp`).
    package func watchEvents(
        since revision: UInt64, onInterruption: (@Sendable (WatchInterruption) -> Void)?
    ) -> WorkoutStream<WatchEvent> {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: WatchEvent.self, throwing: (any Error).self)
        let task = Task {
            var since = revision
            var failures = 0
            while !Task.isCancelled {
                var request = Workout_V1_WatchRequest()
                request.sinceRevision = since
                var delivered = false
                do {
                    for try await body in try await openStream(MethodCatalog.watch, request, timeout: nil, api: Self.watchAPI) {
                        guard let message = try? Workout_V1_WatchEvent(serializedBytes: body) else {
                            throw CallFailure.final(WorkoutError(code: .internal, message: "a watch event from the server does not decode"))
                        }
                        let event = WatchEvent(wire: message)
                        since = max(since, event.revision)
                        failures = 0
                        delivered = true
                        continuation.yield(event)
                    }
                    // A clean end is the server's limit on a stream's length: resume at once,
                    // unless the stream ended before its first event (then back off, never spin).
                    if delivered { continue }
                } catch {
                    let failure = Self.watchFailure(error)
                    guard failure.resumable, !Task.isCancelled else {
                        if Task.isCancelled { break }
                        continuation.finish(throwing: failure.error.inSwiftTerms(method: MethodCatalog.watch.descriptor.name, call: Self.watchAPI))
                        return
                    }
                    // A `WorkoutError` (not a `CallFailure`) comes from opening a connection, after
                    // every attempt the reconnect policy allows.
                    onInterruption?(WatchInterruption(error: failure.error, couldNotConnect: !(error is CallFailure)))
                }
                failures += 1
                try? await Task.sleep(for: configuration.reconnect.delay(afterFailures: failures))
            }
            // Only cancellation gets here (the reader's task, or the reader gone): the stream
            // is not marked finished, so a reader still waiting sees `CANCELLED`.
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return WorkoutStream(events, ending: StreamEnding())
    }

    /// Everything of the member's — profile, totals, workouts, meals, weigh-ins, steps,
    /// achievements — in bounded chunks, ending when the last chunk has arrived.
    ///
    /// Not resumed after a lost connection: the stream ends with `UNAVAILABLE`; start
    /// the export again. Cancelling the task iterating it ends it with `CANCELLED`.
    ///
    /// - Parameter timeout: A deadline for the whole export (`nil`: none).
    /// - Returns: The chunks, the first carrying the profile and totals.
    public func export(timeout: Duration? = nil) -> WorkoutStream<ExportChunk> {
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: ExportChunk.self, throwing: (any Error).self)
        let ending = StreamEnding()
        let task = Task {
            do {
                for try await body in try await openStream(MethodCatalog.export, Workout_V1_ExportRequest(), timeout: timeout, api: Self.exportAPI) {
                    guard let message = try? Workout_V1_ExportChunk(serializedBytes: body) else {
                        throw WorkoutError(code: .internal, message: "an export chunk from the server does not decode")
                    }
                    continuation.yield(ExportChunk(wire: message))
                }
                ending.markFinished()
                continuation.finish()
            } catch {
                continuation.finish(throwing: Self.watchFailure(error).error.inSwiftTerms(method: MethodCatalog.export.descriptor.name, call: Self.exportAPI))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return WorkoutStream(chunks, ending: ending)
    }

    /// The public methods that open the streams, as errors name them.
    private static let watchAPI = "watch(since:)"
    private static let exportAPI = "export(timeout:)"

    /// What ended a stream, and whether a Watch resumes after it.
    private static func watchFailure(_ error: any Error) -> (error: WorkoutError, resumable: Bool) {
        switch error {
        case let failure as CallFailure:
            switch failure.disposition {
            case .notProcessed, .outcomeUnknown:
                return (failure.error, true)
            case .final:
                // The server's shutdown and its slow-reader cut are worth resuming after.
                let resumable = failure.error.code == .unavailable || failure.error.code == .resourceExhausted
                return (failure.error, resumable)
            }
        case let error as WorkoutError:
            return (error, error.code == .unavailable)
        default:
            return (WorkoutError(code: .unknown, message: "\(error)"), false)
        }
    }
}
