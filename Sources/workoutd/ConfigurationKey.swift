import Foundation
import WorkoutProtocol

/// One key of the configuration file: its name, its default, its bound and what it sets.
///
/// ``all`` is the one list: the parser takes the bounds from it, `workoutd --help` and
/// `workoutd check-config` print it, and a test checks that `deploy/README.md` and the example
/// `deploy/workoutd.json` name every key.
struct ConfigurationKey: Sendable {
    /// What values a key takes.
    enum Bound: Sendable {
        /// A non-empty string (an address or a path).
        case text
        /// A whole number in the range.
        case count(ClosedRange<Int>)
        /// A number of seconds in the range, the lower end excluded when it is 0.
        case seconds(ClosedRange<Double>)
        /// One of these words.
        case choice([String])

        /// The bound as people read it: "1 to 65536", "above 0, at most 60 s".
        var description: String {
            switch self {
            case .text: "non-empty text"
            case .count(let range): "\(range.lowerBound) to \(range.upperBound)"
            case .seconds(let range):
                range.lowerBound == 0
                    ? "above 0, at most \(Self.number(range.upperBound)) s"
                    : "\(Self.number(range.lowerBound)) to \(Self.number(range.upperBound)) s"
            case .choice(let words):
                words.count < 2
                    ? words.joined()
                    : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
            }
        }

        private static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    /// The key: `port`, or `limits.max_connections` for a key inside `limits`.
    let name: String
    /// What it takes.
    let bound: Bound
    /// Its default, as people read it.
    let defaultValue: String
    /// What it sets.
    let summary: String

    /// The key inside its object: `max_connections` for `limits.max_connections`.
    var leaf: String { name.split(separator: ".").last.map(String.init) ?? name }

    /// Every key, in the order the documentation lists them.
    static let all: [ConfigurationKey] = [
        ConfigurationKey(name: "host", bound: .text, defaultValue: "127.0.0.1",
                         summary: "the address to listen on: an IP literal or host name; \"0.0.0.0\" or \"::\" for every interface"),
        ConfigurationKey(name: "port", bound: .count(0...65535), defaultValue: "7420",
                         summary: "the TCP port (0: any free port)"),
        ConfigurationKey(name: "transport", bound: .choice(ServeTransport.names), defaultValue: ServeTransport.defaultValue.rawValue,
                         summary: "tls: TLS with the server's own key (made in <data_dir>/identity on first start); plain: plain TCP, loopback only; plain-network: plain TCP on every address (behind a TLS proxy of your own)"),
        ConfigurationKey(name: "data_dir", bound: .text, defaultValue: "./workout-data",
                         summary: "the data directory (relative: to the configuration file's directory)"),
        ConfigurationKey(name: "backup_dir", bound: .text, defaultValue: "<data_dir>/backups",
                         summary: "where `workoutd backup --scheduled` writes archives (relative: to the configuration file's directory)"),
        ConfigurationKey(name: "backup_keep_daily", bound: .count(1...366), defaultValue: "7",
                         summary: "days whose newest archive `--scheduled` and `--prune` keep"),
        ConfigurationKey(name: "backup_keep_weekly", bound: .count(0...520), defaultValue: "8",
                         summary: "ISO weeks whose newest archive `--scheduled` and `--prune` keep"),
        ConfigurationKey(name: "limits.max_connections", bound: .count(1...65536), defaultValue: "1024",
                         summary: "open connections at once (each is a file descriptor: see LimitNOFILE)"),
        ConfigurationKey(name: "limits.max_connections_per_address", bound: .count(1...65536), defaultValue: "256",
                         summary: "open connections from one source address"),
        ConfigurationKey(name: "limits.max_frame_bytes", bound: .count(HandshakeLimits.allowedFrameSizes), defaultValue: "4194304",
                         summary: "the largest frame accepted (announced in ServerHello, so within the protocol's 65536..67108864)"),
        ConfigurationKey(name: "limits.max_calls_in_flight", bound: .count(1...1024), defaultValue: "64",
                         summary: "calls in flight on one connection"),
        ConfigurationKey(name: "limits.max_buffered_output_bytes", bound: .count((64 << 10)...(1 << 30)), defaultValue: "8388608",
                         summary: "output buffered for one slow reader before it is dropped"),
        ConfigurationKey(name: "limits.handshake_timeout_seconds", bound: .seconds(0...300), defaultValue: "10",
                         summary: "how long a new connection has to finish the handshake"),
        ConfigurationKey(name: "limits.idle_timeout_seconds", bound: .seconds(0...86_400), defaultValue: "300",
                         summary: "how long a connection may stay silent"),
        ConfigurationKey(name: "limits.max_incomplete_frame_bytes", bound: .count((64 << 10)...(1 << 30)), defaultValue: "16777216",
                         summary: "memory for frames still arriving, across all connections; over it, the connection holding the most is dropped"),
        ConfigurationKey(name: "limits.frame_timeout_seconds", bound: .seconds(0...600), defaultValue: "30",
                         summary: "how long one frame may take to arrive whole"),
        ConfigurationKey(name: "limits.sessionless_idle_seconds", bound: .seconds(0...3_600), defaultValue: "15",
                         summary: "how long a connection without a session may go without calls"),
        ConfigurationKey(name: "limits.max_stream_seconds", bound: .seconds(0...604_800), defaultValue: "86400",
                         summary: "the longest a server stream may run"),
        ConfigurationKey(name: "limits.shutdown_grace_seconds", bound: .seconds(0...60), defaultValue: "10",
                         summary: "how long calls in flight get to finish on SIGTERM (workoutd.service's TimeoutStopSec is 90)"),
        ConfigurationKey(name: "limits.import_batches_per_minute", bound: .count(1...6000), defaultValue: "120",
                         summary: "import batches (Logging.ImportRecords, up to 1000 records each) one member may send per minute"),
    ]

    /// The key named `name`.
    static func named(_ name: String) -> ConfigurationKey {
        guard let key = all.first(where: { $0.name == name }) else { preconditionFailure("no configuration key \(name)") }
        return key
    }

    /// The keys a file may have at its top level (`limits` is an object of the `limits.` keys).
    static var topLevel: [String] {
        var names: [String] = []
        for key in all {
            let first = String(key.name.split(separator: ".").first ?? "")
            if !names.contains(first) { names.append(first) }
        }
        return names
    }

    /// The keys of the `limits` object.
    static var limitKeys: [String] {
        all.filter { $0.name.hasPrefix("limits.") }.map(\.leaf)
    }

    /// The keys as an aligned table: key, default, bound, what it sets.
    static func table() -> String {
        let width = all.map(\.name.count).max() ?? 0
        let defaultWidth = all.map(\.defaultValue.count).max() ?? 0
        return all.map { key in
            key.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + key.defaultValue.padding(toLength: defaultWidth, withPad: " ", startingAt: 0) + "  "
                + key.bound.description
        }.joined(separator: "\n")
    }
}
