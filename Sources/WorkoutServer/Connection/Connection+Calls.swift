import Dispatch
import SwiftProtobuf
import WorkoutCore
import WorkoutProtocol

/// Calls on a connection: starting them, deadlines, cancellation, completing them.
extension Connection {
    /// Starts the call a REQUEST frame opens.
    func startCall(_ frame: Frame) {
        let startedAt = DispatchTime.now().uptimeNanoseconds
        let callID = frame.callID
        guard phase == .open else {
            finish(callID, method: frame.code, startedAt: startedAt, isStream: false,
                   .failure(CallFailure(.unavailable, "the server is shutting down; call again on a new connection")))
            return
        }
        guard let (descriptor, handler) = context.router.route(frame.code) else {
            finish(callID, method: frame.code, startedAt: startedAt, isStream: false,
                   .failure(CallFailure(.unimplemented, "this server has no method \(frame.code)")))
            return
        }
        let isStream = descriptor.isServerStreaming
        guard calls.count < context.configuration.maxCallsInFlight else {
            finish(callID, method: frame.code, startedAt: startedAt, isStream: isStream,
                   .failure(CallFailure(.resourceExhausted, "more than \(context.configuration.maxCallsInFlight) calls in flight on this connection")))
            return
        }
        if frame.deadline == 0 {
            finish(callID, method: frame.code, startedAt: startedAt, isStream: isStream,
                   .failure(CallFailure(.deadlineExceeded, "the call's deadline had passed when it arrived")))
            return
        }
        let body: [UInt8]
        do {
            body = try frame.decodedBody(maxDecompressedSize: context.configuration.maxFrameSize)
        } catch {
            finish(callID, method: frame.code, startedAt: startedAt, isStream: isStream, .failure(CallFailure(error)))
            return
        }
        if descriptor.needsSession && caller == nil {
            finish(callID, method: frame.code, startedAt: startedAt, isStream: isStream,
                   .failure(CallFailure(.unauthenticated, "this method needs a session: call Auth.Login, Auth.Register or Auth.Resume first")))
            return
        }
        let requestContext = RequestContext(caller: caller, source: peer.host, agent: clientAgent)
        switch handler {
        case .inline(let run):
            let result = Result { try run(requestContext, body) }
            finish(callID, method: frame.code, startedAt: startedAt, isStream: false, result)
        case .task(let run):
            let call = CallState(method: frame.code, isStream: false, startedAt: startedAt)
            calls[callID] = call
            scheduleDeadline(frame.deadline, for: call, callID: callID)
            call.task = Task(executorPreference: ServerTaskExecutor.shared) { [self] in
                let result: Result<HandlerOutcome, any Error>
                do {
                    result = .success(try await run(requestContext, body))
                } catch {
                    result = .failure(error)
                }
                queue.async { [self] in complete(callID, result) }
            }
        case .stream(let kind):
            let call = CallState(method: frame.code, isStream: true, startedAt: startedAt)
            calls[callID] = call
            scheduleDeadline(frame.deadline, for: call, callID: callID)
            startStream(kind, callID: callID, body: body, context: requestContext)
        }
    }

    private func scheduleDeadline(_ milliseconds: UInt32?, for call: CallState, callID: UInt32) {
        guard let milliseconds else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(Int(milliseconds)))
        timer.setEventHandler { [self] in
            guard calls[callID] === call else { return }
            calls[callID] = nil
            call.abandon()
            if call.isStream { endStream(callID) }
            finish(callID, method: call.method, startedAt: call.startedAt, isStream: call.isStream,
                   .failure(CallFailure(.deadlineExceeded, "the call did not finish within its deadline of \(milliseconds) ms")))
            flush()
        }
        call.deadline = timer
        timer.resume()
    }

    /// Completes a task's call, unless it was cancelled or timed out meanwhile.
    private func complete(_ callID: UInt32, _ result: Result<HandlerOutcome, any Error>) {
        guard let call = calls.removeValue(forKey: callID) else { return }
        call.deadline?.cancel()
        finish(callID, method: call.method, startedAt: call.startedAt, isStream: false, result)
        flush()
    }

    /// Answers a call with its outcome: applies a session change and sends the final frame.
    func finish(_ callID: UInt32, method: UInt32, startedAt: UInt64, isStream: Bool, _ result: Result<HandlerOutcome, any Error>) {
        let status: StatusCode
        switch result {
        case .success(let outcome) where isStream:
            status = .ok
            _ = outcome
            send(.streamEnd, callID: callID)
        case .success(let outcome):
            status = .ok
            switch outcome {
            case .reply(let body):
                send(.response, callID: callID, body: body)
            case .bind(let newCaller, let body):
                if caller == nil { context.statistics.sessionChanged(authenticated: true) }
                caller = newCaller
                logger[metadataKey: "user"] = "\(newCaller.userID)"
                send(.response, callID: callID, body: body)
            case .unbind(let body):
                if caller != nil { context.statistics.sessionChanged(authenticated: false) }
                caller = nil
                endWatch(status: .unauthenticated, message: "the session ended")
                send(.response, callID: callID, body: body)
            }
        case .failure(let error):
            let failure = CallFailure(error)
            status = failure.status
            if failure.status == .internal {
                logger.error("call failed: \(error)", metadata: ["method": "\(method)"])
            } else {
                logger.info("call failed: \(failure.details.message)", metadata: ["method": "\(method)", "status": "\(failure.status.name)"])
            }
            send(isStream ? .streamEnd : .response, callID: callID, code: failure.status.rawValue,
                 body: (try? failure.details.serializedBytes()) ?? [])
        }
        lastCallActivity = DispatchTime.now().uptimeNanoseconds
        context.statistics.shard(forConnection: id).recordCall(method: method, status: status, microseconds: (lastCallActivity - startedAt) / 1_000)
    }

    /// Honours a CANCEL: the call is abandoned and answered CANCELLED; an unknown id is ignored.
    func cancelCall(_ callID: UInt32) {
        guard let call = calls.removeValue(forKey: callID) else { return }
        call.abandon()
        if call.isStream { endStream(callID) }
        finish(callID, method: call.method, startedAt: call.startedAt, isStream: call.isStream,
               .failure(CallFailure(.cancelled, "cancelled by the client")))
    }
}
