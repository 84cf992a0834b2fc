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
    static func configuration(for address: ServerAddress) -> WorkoutClient.Configuration {
        WorkoutClient.Configuration(
            address: address, deviceName: deviceName(host: hostName()), agent: "workout-cli/1",
            connectTimeout: .seconds(5), callTimeout: .seconds(30), reconnect: .interactive)
    }

    /// A client for `address`, resuming `token` if given.
    static func client(for address: ServerAddress, token: SessionToken? = nil) -> WorkoutClient {
        WorkoutClient(configuration: configuration(for: address), sessionToken: token)
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
    /// credentials' server, else ``defaultServer``.
    ///
    /// - Parameters:
    ///   - option: The `--server` option, if given.
    ///   - environment: The process's environment.
    ///   - stored: The stored credentials, if any.
    /// - Returns: The address.
    /// - Throws: ``CLIError`` (usage) for a malformed address.
    static func server(option: String?, environment: [String: String], stored: Credentials?) throws(CLIError) -> ServerAddress {
        let (text, source): (String, String) =
            if let option { (option, "--server") }
            else if let variable = environment["WORKOUT_SERVER"], !variable.isEmpty { (variable, "WORKOUT_SERVER") }
            else if let stored { (stored.server, "the stored credentials") }
            else { (defaultServer, "the default") }
        guard let address = ServerAddress(text) else {
            throw CLIError(.usage, "\(source): \"\(text)\" is not a server address; expected HOST or HOST:PORT, e.g. 192.168.1.10:7420")
        }
        return address
    }
}
