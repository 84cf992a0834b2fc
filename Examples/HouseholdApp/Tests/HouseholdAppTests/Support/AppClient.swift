import Synchronization
import WorkoutClient

/// The fingerprints an app's `confirmNewServer` callback was asked about, in order.
final class ConfirmationLog: Sendable {
    private let asked = Mutex<[String]>([])

    /// Notes a question about `fingerprint`.
    func record(_ fingerprint: ServerFingerprint) {
        asked.withLock { $0.append(fingerprint.description) }
    }

    /// The fingerprints asked about.
    var fingerprints: [String] { asked.withLock { $0 } }
}

/// The trust an app sets up: pins in `pinFile`; a server not pinned yet is trusted when it has
/// the `expected` fingerprint, or when the member answers `confirming` (noted in `log`); with
/// `confirming` `nil` there is no callback, so such a server is refused.
func appTrust(
    pinFile: String, confirming answer: Bool?, log: ConfirmationLog? = nil, expected: ServerFingerprint? = nil
) -> ServerTrust {
    ServerTrust(
        knownServers: KnownServers(path: pinFile),
        expectedFingerprint: expected,
        confirmNewServer: answer.map { answer in
            { @Sendable _, fingerprint in
                log?.record(fingerprint)
                return answer
            }
        })
}

/// A client configuration as an app on this machine's network would make it.
func appConfiguration(
    _ address: ServerAddress, security: TransportSecurity = .tls, connectTimeout: Duration = .seconds(3)
) -> WorkoutClient.Configuration {
    WorkoutClient.Configuration(
        address: address, deviceName: "Household app", connectTimeout: connectTimeout, callTimeout: .seconds(10),
        reconnect: .interactive, transportSecurity: security)
}
