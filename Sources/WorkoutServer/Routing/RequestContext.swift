package import WorkoutCore

/// What a handler knows of the call's connection.
package struct RequestContext: Sendable {
    /// The connection's session, if it has one.
    package var caller: Caller?
    /// The peer's address (host only), for login throttling and logs.
    package var source: String
    /// The client's agent string from its HELLO.
    package var agent: String
    /// The largest response body the client accepts (the max frame size of its HELLO): what
    /// a page of a query may fill.
    package var maxResponseBytes: Int
    /// The request's `X-Signature` (HTTP only): what a signed device token's posts carry.
    package var signature: String?

    /// The context of a call from `source` by `caller`, whose client accepts responses of up
    /// to `maxResponseBytes`.
    package init(caller: Caller?, source: String, agent: String, maxResponseBytes: Int) {
        self.caller = caller
        self.source = source
        self.agent = agent
        self.maxResponseBytes = maxResponseBytes
    }
}

/// What a handler produces besides its response.
package enum HandlerOutcome: Sendable {
    /// The response body; the connection's session is unchanged.
    case reply([UInt8])
    /// The response body, and the connection now speaks for this session (login, register, resume).
    case bind(Caller, reply: [UInt8])
    /// The response body, and the connection has no session any more (logout, account deleted).
    case unbind(reply: [UInt8])
}

/// How a method runs.
package enum Handler: Sendable {
    /// A read: runs on the connection's queue at once, in a read transaction (microseconds).
    case inline(@Sendable (RequestContext, [UInt8]) throws -> HandlerOutcome)
    /// A write: runs in a task on the connection's own queue, which hands its transaction to
    /// the group-commit writer and resumes on the queue once the batch is committed.
    case write(@Sendable (RequestContext, [UInt8]) async throws -> HandlerOutcome)
    /// A call with slow work (scrypt, an import's batch): runs in a task on the server's
    /// shared executor of slow calls, so that it holds up neither its connection nor the
    /// others; its result comes back to the connection's queue.
    case slow(@Sendable (RequestContext, [UInt8]) async throws -> HandlerOutcome)
    /// A server-streaming call, driven by the connection.
    case stream(StreamKind)
}

/// The server-streaming methods.
package enum StreamKind: Sendable {
    /// `Streams.Watch`.
    case watch
    /// `Streams.Export`.
    case export
}
