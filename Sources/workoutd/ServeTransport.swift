import ArgumentParser

/// How `workoutd serve` carries the protocol: `--transport`, `$WORKOUTD_TRANSPORT` or the
/// configuration file's `transport` (see ``ServerSettings`` for which wins).
enum ServeTransport: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// TLS with the server's own key (made in the data directory on first start).
    case tls
    /// Plain TCP, allowed on loopback addresses only.
    case plain
    /// Plain TCP on any address: for a TLS-terminating proxy of one's own, or a benchmark.
    case plainNetwork = "plain-network"

    /// The transport when nothing says otherwise.
    static let defaultValue = ServeTransport.tls

    /// The values, as people write them: `tls`, `plain` or `plain-network`.
    static var names: [String] { allCases.map(\.rawValue) }
}
