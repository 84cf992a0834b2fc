import Dispatch
import WorkoutProtocol

/// The protocol on a connection: preface, HELLO, then frames.
extension Connection {
    /// Handles every complete frame the decoder holds.
    func processInput() {
        do {
            if phase == .awaitingPreface {
                guard let preface = try decoder.readPreface() else { return }
                switch Handshake.answer(to: preface) {
                case .success(let answer):
                    var bytes: [UInt8] = []
                    answer.encode(into: &bytes)
                    appendRaw(bytes)
                    phase = .awaitingHello
                case .failure(let error):
                    refuse(error)
                    return
                }
            }
            while phase != .closed, let frame = try decoder.nextFrame() {
                try handle(frame)
            }
        } catch let error as ProtocolError {
            if phase == .awaitingPreface {
                refuse(error)
            } else {
                logger.info("protocol error: \(error.message)")
                goAway(error.status, error.message)
                close()
            }
        } catch {
            logger.error("unexpected error: \(error)")
            goAway(.internal, "internal error")
            close()
        }
    }

    /// Answers a bad preface: a refusal preface, a GOAWAY saying why, then close.
    private func refuse(_ error: ProtocolError) {
        logger.info("handshake refused: \(error.message)")
        var details = Workout_V1_RpcStatus()
        details.message = error.message
        var bytes: [UInt8] = []
        Handshake.writeRefusal(error, goAwayPayload: (try? details.serializedBytes()) ?? [], into: &bytes)
        appendRaw(bytes)
        flush()
        close()
    }

    private func handle(_ frame: Frame) throws {
        switch frame.type {
        case .hello:
            try receiveHello(frame)
        case .request:
            guard phase == .open || phase == .draining else {
                throw ProtocolError(.unexpectedHello, "REQUEST before the HELLO exchange")
            }
            try callIDs.accept(frame.callID)
            lastCallActivity = DispatchTime.now().uptimeNanoseconds
            startCall(frame)
        case .cancel:
            cancelCall(frame.callID)
        case .ping:
            send(.pong, body: frame.body)
        case .pong:
            break
        default:
            throw ProtocolError(.unexpectedFrameType, "\(frame.type) frames may not be sent by a client")
        }
    }

    private func receiveHello(_ frame: Frame) throws {
        guard phase == .awaitingHello else {
            throw ProtocolError(.unexpectedHello, "a second HELLO")
        }
        let body = try frame.decodedBody(maxDecompressedSize: Handshake.preHelloMaxFrameSize)
        guard let hello = try? Workout_V1_ClientHello(serializedBytes: body) else {
            throw ProtocolError(.unexpectedHello, "the HELLO does not decode as workout.v1.ClientHello")
        }
        let configuration = context.configuration
        clientAgent = String(hello.agent.utf8.prefix(128)) ?? ""
        let clientMax = hello.maxFrameSize == 0 ? HandshakeLimits.defaultMaxFrameSize : Int(hello.maxFrameSize)
        encoder = FrameEncoder(
            maxFrameSize: max(clientMax, Handshake.preHelloMaxFrameSize),
            compressionEnabled: hello.acceptsCompressed,
            maxDecompressedSize: hello.maxDecompressedSize == 0 ? nil : Int(hello.maxDecompressedSize))
        decoder.maxFrameSize = configuration.maxFrameSize
        var answer = Workout_V1_ServerHello()
        answer.version = UInt32(Handshake.supportedVersions.upperBound)
        answer.serverAgent = configuration.agent
        answer.serverVersion = WorkoutServer.version
        answer.maxFrameSize = UInt32(configuration.maxFrameSize)
        answer.maxCallsInFlight = UInt32(configuration.maxCallsInFlight)
        answer.pingIntervalMs = configuration.pingInterval.clampedMilliseconds
        answer.idleTimeoutMs = configuration.idleTimeout.clampedMilliseconds
        answer.maxDecompressedSize = UInt32(configuration.maxFrameSize)
        answer.acceptsCompressed = true
        send(.hello, body: try answer.serializedBytes())
        phase = .open
        logger.debug("handshake done", metadata: ["agent": "\(clientAgent)"])
    }

}
