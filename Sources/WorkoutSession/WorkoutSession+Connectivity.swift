// Whether the model reaches the server, as the live stream and the writes observe it.
//
// The Watch stream says most: its first caught-up event makes the model live; a stream that
// breaks on a connection it had makes it reconnecting (a restart, a dropped Wi-Fi, a server that
// stopped answering, noticed by the client's keepalive); a stream that cannot open a connection
// at all, after every attempt the client's reconnect policy allows, makes it unreachable. A write
// that finds the server unreachable while the model is not live says the same. Unreachable ends
// loading (there is nothing to wait for) and shows its error in `lastError`; writes made through
// the outbox while unreachable are queued at once, without a connection attempt, and sent when
// the stream catches up again.

public import Foundation
public import WorkoutClient

extension WorkoutSession {
    /// Whether the model reaches the server, for an "offline" banner.
    public enum Connectivity: Sendable, Hashable {
        /// The model is not following the server: nobody is signed in, the model was closed,
        /// or ``WorkoutSession/stopWatching()`` was called.
        case idle
        /// The model has started following the server and has heard nothing yet, good or bad.
        case connecting
        /// The live stream is connected and caught up (``WorkoutSession/isLive``).
        case live
        /// The connection was lost and the model is opening another; what shows may be behind.
        ///
        /// - Parameter lastError: Why the connection was lost.
        case reconnecting(lastError: WorkoutError)
        /// The server cannot be reached: every connection attempt failed. The model keeps trying
        /// in the background (with the client's backoff); writes made through the outbox are
        /// queued at once meanwhile.
        ///
        /// - Parameters:
        ///   - lastError: The last failure (also in ``WorkoutSession/lastError``).
        ///   - since: When the model last was live, or started trying.
        case unreachable(lastError: WorkoutError, since: Date)

        /// Whether the model is following the server and it is not reached now (reconnecting or
        /// unreachable).
        public var isOffline: Bool {
            switch self {
            case .reconnecting, .unreachable: true
            case .idle, .connecting, .live: false
            }
        }
    }

    /// The stream broke (or could not connect) and is about to be resumed.
    func watchInterrupted(_ interruption: WatchInterruption) {
        set(\.isLive, false)
        if offlineSince == nil { offlineSince = now() }
        if interruption.couldNotConnect {
            serverUnreachable(interruption.error)
        } else {
            set(\.connectivity, .reconnecting(lastError: interruption.error))
        }
    }

    /// Every attempt to reach the server failed: the model stops loading and says why.
    func serverUnreachable(_ error: WorkoutError) {
        let since = offlineSince ?? now()
        offlineSince = since
        set(\.connectivity, .unreachable(lastError: error, since: since))
        set(\.isLoading, false)
        set(\.lastError, error)
    }

    /// A write found the server out of reach (`reason`): while the model is not live, that is
    /// what the stream would conclude too.
    func writeFoundServerUnreachable(_ reason: WorkoutError?) {
        guard let reason, !isLive, connectivity != .idle,
              [.unavailable, .deadlineExceeded].contains(reason.code) else { return }
        serverUnreachable(reason)
    }

    /// The stream is connected and caught up.
    func becameLive() {
        offlineSince = nil
        set(\.connectivity, .live)
    }
}
