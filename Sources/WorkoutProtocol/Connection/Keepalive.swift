/// The keepalive rule both sides of a connection share: after `interval` of silence from the
/// peer a side sends a PING; if nothing at all arrives within `timeout` after it, the peer
/// is taken for gone (PROTOCOL.md 12).
///
/// The server pings whenever the client is silent (`timeout` = its idle timeout); the client
/// only while it waits for answers (`timeout` = the server's ping interval), so a vanished
/// server cannot leave a call or a Watch waiting forever.
package struct Keepalive: Sendable, Hashable {
    /// What a check decides.
    package enum Decision: Sendable, Hashable {
        /// Nothing to do yet.
        case wait
        /// Send a PING now.
        case sendPing
        /// The PING went unanswered for `timeout`: the peer is gone.
        case peerUnresponsive
    }

    /// Silence before a PING; `.zero` turns keepalive off.
    package let interval: Duration
    /// Silence after a PING before giving up.
    package let timeout: Duration
    /// When anything last arrived from the peer (or when watching began).
    package private(set) var lastHeard: ConnectionInstant
    /// When the PING that nothing has answered yet went out.
    package private(set) var pingSentAt: ConnectionInstant?

    /// A keepalive that starts counting silence at `now`.
    package init(interval: Duration, timeout: Duration, now: ConnectionInstant) {
        self.interval = interval
        self.timeout = timeout
        self.lastHeard = now
    }

    /// Bytes arrived from the peer: it is alive.
    package mutating func heard(at now: ConnectionInstant) {
        lastHeard = now
        pingSentAt = nil
    }

    /// Decides at `now`; `watching` is whether silence matters now (the client watches only
    /// while calls wait).
    package mutating func check(at now: ConnectionInstant, watching: Bool = true) -> Decision {
        guard interval > .zero, watching else { return .wait }
        if let pingSentAt {
            return now >= pingSentAt + timeout ? .peerUnresponsive : .wait
        }
        guard now >= lastHeard + interval else { return .wait }
        pingSentAt = now
        return .sendPing
    }

    /// When ``check(at:watching:)`` may next decide something, if ever.
    package func nextCheck(watching: Bool = true) -> ConnectionInstant? {
        guard interval > .zero, watching else { return nil }
        if let pingSentAt { return pingSentAt + timeout }
        return lastHeard + interval
    }

    /// The 8-byte payload of a PING sent at `now` (the sender's milliseconds, big-endian).
    package static func pingPayload(at now: ConnectionInstant) -> [UInt8] {
        withUnsafeBytes(of: now.milliseconds.bigEndian) { Array($0) }
    }
}
