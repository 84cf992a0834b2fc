package import WorkoutProtocol

/// What a call's work came to.
package enum CallOutcome: Sendable, Equatable {
    /// Success: a unary call's response body (a stream's is ignored: STREAM_END OK is empty).
    case success([UInt8])
    /// Failure, with the status and details for the wire.
    case failure(CallFailure)
}

/// How a call changed the connection's session.
package enum SessionChange: Sendable, Hashable {
    /// Login, Register or Resume bound a session.
    case bound
    /// Logout or account deletion ended it.
    case ended
}

/// A call that passed every connection check and is the driver's to run.
package struct ServerCallStart: Sendable, Equatable {
    /// The call's id.
    package let callID: UInt32
    /// The method's number (the catalog's, known to the server).
    package let method: UInt32
    /// The request body, inflated.
    package let body: [UInt8]
    /// Whether the call speaks for the connection's session: always on the binary face; on
    /// HTTP only when the request presented the token the session came from.
    package var speaksForSession = true
    /// The request's `X-Signature` (HTTP only), for the ingest endpoints to check.
    package var signature: String?
    /// A GET whose answer follows the member's revision (``RevisionTag``): the driver reads the
    /// revision first, and answers ``Revalidated`` with `callFinished`.
    package var revalidation: Revalidation?
}

/// What a GET of a method whose answer follows the member's revision brings to the driver.
package struct Revalidation: Sendable, Equatable {
    /// The member, the method, the encoding and the request (``RevisionTag/seed(member:method:json:request:)``).
    package let seed: [UInt8]
    /// The request's `If-None-Match`.
    package let ifNoneMatch: String?
}

/// The driver's word on a ``Revalidation``: the answer's tag, and whether `If-None-Match`
/// named it (the answer is then `304 Not Modified`, and no query ran).
package struct Revalidated: Sendable, Equatable {
    /// The tag of the member's answer at the revision read.
    package let entityTag: String
    /// Whether the request already holds that answer.
    package let unchanged: Bool

    /// A tag, and whether the request holds its answer.
    package init(entityTag: String, unchanged: Bool) {
        self.entityTag = entityTag
        self.unchanged = unchanged
    }
}

/// A call's final frame went out: for statistics and logs.
package struct ServerCallSummary: Sendable, Hashable {
    /// The call's id.
    package let callID: UInt32
    /// The method number.
    package let method: UInt32
    /// The status sent.
    package let status: StatusCode
    /// From the REQUEST to the final frame.
    package let duration: Duration
}

/// What ``ServerConnectionMachine`` asks its driver to do.
package enum ServerConnectionAction: Sendable, Equatable {
    /// Run a call's work; report its end with `callFinished` (or messages with `streamMessage`).
    case run(ServerCallStart)
    /// HTTP: find the session of a bearer token (resuming it, as Auth.Resume does) and report
    /// it with ``ServerConnectionMachine/authenticated(_:now:)``.
    case authenticate(token: [UInt8])
    /// Stop a call's work: its final frame went out already, or never will.
    case stopWork(callID: UInt32)
    /// A call's final frame went out.
    case callEnded(ServerCallSummary)
    /// Stop reading: the output is full.
    case pauseReading
    /// Read again: the peer drained the output.
    case resumeReading
    /// Streams may produce again (see ``ServerConnectionMachine/canProduce(_:)``).
    case resumeProducing
    /// Call ``ServerConnectionMachine/tick(now:)`` at this moment (replacing an earlier setting).
    case armTimer(ConnectionInstant)
    /// Write what the output holds if the socket takes it, then close; `log` says why.
    case close(log: String)
}
