import Foundation
import WorkoutClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `workout` makes its ``WorkoutClient``: impatient when the server is not there
/// (`ReconnectPolicy.interactive`), and named in the member's session list after this machine.
enum ClientFactory {
    /// The server when nothing else says: `127.0.0.1:7420`.
    static let defaultServer = "127.0.0.1:\(ServerAddress.defaultPort)"

    /// The configuration for `address`.
    ///
    /// - Parameter address: The server.
    /// - Returns: A configuration with `reconnect: .interactive` and a device name such as
    ///   `workout CLI on nas`.
    static func configuration(
        for address: ServerAddress, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> WorkoutClient.Configuration {
        WorkoutClient.Configuration(
            address: address, deviceName: deviceName(host: hostName()), agent: "workout-cli/1",
            connectTimeout: .seconds(5), callTimeout: .seconds(30), reconnect: .interactive,
            transportSecurity: environment["WORKOUT_TRANSPORT"] == "plain" ? .plainTCP() : .tls)
    }

    /// Whom `workout` trusts: the keys pinned in `known_servers` in the configuration directory;
    /// a server not pinned yet must have `expected` (`--fingerprint`, or an invite code's) or
    /// `$WORKOUT_SERVER_FINGERPRINT`, else the member is asked on the terminal to compare its
    /// fingerprint with the one `workoutd fingerprint` prints. Without a terminal it is refused,
    /// and standard error says how to give the fingerprint up front.
    static func trust(
        expected: ServerFingerprint? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ServerTrust {
        let directory = CredentialStore.directory(environment: environment)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fromEnvironment = fingerprint(fromEnvironment: environment)
        return ServerTrust(
            knownServers: KnownServers(path: directory + "/known_servers"),
            expectedFingerprint: expected ?? fromEnvironment,
            confirmNewServer: isatty(0) == 1
                ? { @Sendable address, fingerprint in confirmOnTerminal(address, fingerprint) }
                : { @Sendable address, fingerprint in explainWithoutTerminal(address, fingerprint) })
    }

    /// `$WORKOUT_SERVER_FINGERPRINT` parsed; set but not a fingerprint, it is not used and
    /// standard error says so (a server seen for the first time is then asked about, or refused).
    static func fingerprint(fromEnvironment environment: [String: String]) -> ServerFingerprint? {
        guard let text = environment["WORKOUT_SERVER_FINGERPRINT"], !text.isEmpty else { return nil }
        guard let parsed = ServerFingerprint(text) else {
            FileHandle.standardError.write(Data(
                "workout: WORKOUT_SERVER_FINGERPRINT=\"\(text)\" is not a key fingerprint (\(FingerprintOption.expectedForm)); it is not used.\n\n".utf8))
            return nil
        }
        return parsed
    }

    /// Asks on the terminal whether to trust a server seen for the first time.
    @Sendable static func confirmOnTerminal(_ address: ServerAddress, _ fingerprint: ServerFingerprint) -> Bool {
        FileHandle.standardError.write(Data("""
            The server at \(address) is new to this machine. Its key's fingerprint is

                \(fingerprint)

            Compare it with what `workoutd fingerprint` prints on the server (or what it printed when it started).
            Trust this server from now on? [y/N] 
            """.utf8))
        guard let answer = readLine(strippingNewline: true)?.lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }

    /// Says, where no terminal can ask, how to trust a server seen for the first time; trusts nothing.
    @Sendable static func explainWithoutTerminal(_ address: ServerAddress, _ fingerprint: ServerFingerprint) -> Bool {
        FileHandle.standardError.write(Data("""
            workout: no terminal to ask whether to trust \(address). If `workoutd fingerprint` on the server prints \(fingerprint), \
            sign in with `workout login --fingerprint \(fingerprint)` (or set WORKOUT_SERVER_FINGERPRINT).

            """.utf8))
        return false
    }

    /// A client for `address`, resuming `token` if given. An mDNS name (`nas.local`) that the
    /// system cannot resolve (no `libnss-mdns`) is resolved through Avahi (``connectable(_:resolve:)``).
    static func client(for address: ServerAddress, token: SessionToken? = nil, fingerprint: ServerFingerprint? = nil) -> WorkoutClient {
        WorkoutClient(configuration: configuration(for: connectable(address)), sessionToken: token, trust: trust(expected: fingerprint))
    }

    /// Where to connect for `address`: itself, unless its host is an mDNS name (`….local`)
    /// that `getaddrinfo` does not resolve, and `resolve` (Avahi's `avahi-resolve-host-name`)
    /// does; then that address, on the same port. The name stays what is stored and shown.
    ///
    /// - Parameters:
    ///   - address: The server as given or stored.
    ///   - resolve: Resolves an mDNS host name to an address, or `nil`.
    static func connectable(
        _ address: ServerAddress, resolve: (String) -> String? = { Avahi.resolve(host: $0) }
    ) -> ServerAddress {
        guard isMulticastDNSName(address.host), !systemResolves(address.host), let resolved = resolve(address.host) else {
            return address
        }
        return ServerAddress(host: resolved, port: address.port)
    }

    /// Whether `host` is an mDNS name: it ends in `.local` (RFC 6762).
    static func isMulticastDNSName(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        return name.lowercased().hasSuffix(".local") && name.count > ".local".count
    }

    /// Whether the system's resolver (`getaddrinfo`, which knows mDNS names with Debian's
    /// `libnss-mdns`) finds `host`.
    static func systemResolves(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        if let list { freeaddrinfo(list) }
        return status == 0
    }

    /// `workout CLI on <host>`, at most 64 bytes (the server's limit on a device name).
    ///
    /// - Parameter host: This machine's name.
    static func deviceName(host: String) -> String {
        var name = host.isEmpty ? "workout CLI" : "workout CLI on \(host)"
        while name.utf8.count > 64 { name.removeLast() }
        return name
    }

    /// This machine's name (`gethostname`, without a domain), or "" when it has none.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? ""
    }

    /// The server to sign in to: `--server`, else `$WORKOUT_SERVER`, else the stored
    /// credentials' server, else ``defaultServer``. An mDNS name without a port (`nas.local`)
    /// gets the port its server advertises, when `discover` (Avahi) finds it; else 7420.
    ///
    /// - Parameters:
    ///   - option: The `--server` option, if given.
    ///   - environment: The process's environment.
    ///   - stored: The stored credentials, if any.
    ///   - discover: The servers on the local network, or `nil` when they cannot be looked for.
    /// - Returns: The address.
    /// - Throws: ``CLIError`` (usage) for a malformed address.
    static func server(
        option: String?, environment: [String: String], stored: Credentials?,
        discover: () -> [DiscoveredServer]? = { try? Avahi.browse() }
    ) throws(CLIError) -> ServerAddress {
        let (text, source): (String, String) =
            if let option { (option, "--server") }
            else if let variable = environment["WORKOUT_SERVER"], !variable.isEmpty { (variable, "WORKOUT_SERVER") }
            else if let stored { (stored.server, "the stored credentials") }
            else { (defaultServer, "the default") }
        guard var address = ServerAddress(text) else {
            throw CLIError(.usage, "\(source): \"\(text)\" is not a server address; expected HOST or HOST:PORT, e.g. 192.168.1.10:7420")
        }
        // `nas.local` without a port: the port that server advertises, if Avahi finds it.
        if !text.contains(":"), isMulticastDNSName(address.host), let servers = discover() {
            let wanted = address.host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if let match = servers.first(where: { $0.host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")) == wanted }) {
                address.port = match.port
            }
        }
        return address
    }
}
