import SwiftProtobuf
import WorkoutProtocol

/// A soak (`--soak MINUTES`): the measured window cut into minutes, each closed with an
/// Admin.Stats of the server, and Watch streams held open for the whole run.
extension LoadDriver {
    /// The soak's window begins: the first minute starts now.
    func beginSoak(now: UInt64) throws {
        nextMinuteAt = now + Self.minute
        watchEventsCounted = watchEvents()
    }

    /// A minute of the soak ends inside the window: its counts are closed and the server asked.
    func endMinute(now: UInt64) throws {
        while nextMinuteAt <= now { nextMinuteAt += Self.minute }
        guard let minute = closeSoakMinute() else { return }
        try askStats(now: now, minute: minute, purpose: .minuteStats)
    }

    /// Closes the soak's current minute; its number, or `nil` when there is no soak (or every
    /// minute is already closed).
    func closeSoakMinute() -> Int? {
        guard soak != nil else { return nil }
        let events = watchEvents()
        defer { watchEventsCounted = events }
        return soak?.closeMinute(watchEvents: events &- watchEventsCounted)
    }

    /// A minute's Stats arrived: the minute is complete; its line is printed.
    func soakMinuteAnswered(_ minute: Int, stats: Workout_V1_StatsResponse) {
        soak?.complete(minute: minute, stats: stats)
        if let sample = soak?.minutes.first(where: { $0.minute == minute }) { minuteDone(sample) }
    }

    /// Stream messages every Watch connection has received.
    func watchEvents() -> UInt64 {
        watches.reduce(0) { $0 &+ $1.streamMessages }
    }

    /// A Watch connection has resumed its member's session: it opens the Watch from revision 0
    /// (the backlog arrives during setup; the live events, one per write of the member, after).
    func startWatch(on connection: LoadConnection, now: UInt64) throws {
        let request: [UInt8] = try Workout_V1_WatchRequest().serializedBytes()
        try connection.startCall(method: MethodCatalog.watch.number, body: request, purpose: .watch, sentAt: now)
        try flush(connection)
    }

    /// A Watch stream ended, which it never does by itself during a run: a failure (its status
    /// says why: the session revoked, a slow reader, the server shutting down).
    func watchEnded(_ answer: LoadConnection.Answer, on connection: LoadConnection) throws {
        guard phase != .finish && phase != .done else { return }
        let status = StatusCode(rawValue: answer.status)
        throw BenchFailure(
            "the Watch stream of \(settings.plan.memberEmail(connection.member)) ended during \(phase.rawValue): \(LoadConnection.statusText(status, Array(answer.payload)))")
    }

    /// One minute in ``MonotonicClock`` nanoseconds.
    static let minute: UInt64 = 60_000_000_000
}
