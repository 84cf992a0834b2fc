/// How a client notices a server that stopped answering while calls wait (a Watch, say): after
/// ``interval`` with nothing received it sends a PING, and when nothing at all arrives within
/// ``timeout`` after it, the connection is taken for lost (its calls fail `UNAVAILABLE`, and a
/// Watch resumes on a new connection).
///
/// A server that accepts connections but no longer answers (hung, or a network path that drops
/// packets silently) is noticed within `interval + timeout`. Each wait is the shorter of this
/// policy's and the `ping_interval` the server announces in its HELLO (30 s for `workoutd` by
/// default). The client pings only while calls wait, so an idle client sends nothing; the server
/// keeps its own keepalive regardless (PROTOCOL.md 12).
public struct KeepalivePolicy: Sendable, Hashable {
    /// Silence before a PING; `.zero` leaves it to the server's announced interval.
    public var interval: Duration
    /// Silence after a PING before the server is taken for gone; `.zero` leaves it to the
    /// server's announced interval.
    public var timeout: Duration

    /// Makes a policy.
    ///
    /// - Parameters:
    ///   - interval: Silence before a PING; 15 s by default, `.zero` for none.
    ///   - timeout: Silence after the PING before giving up; 10 s by default, so a hung server
    ///     is noticed within 25 s.
    public init(interval: Duration = .seconds(15), timeout: Duration = .seconds(10)) {
        self.interval = max(interval, .zero)
        self.timeout = max(timeout, .zero)
    }
}
