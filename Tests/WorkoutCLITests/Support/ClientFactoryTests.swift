import Testing
import WorkoutClient
@testable import workout

/// Which server `login` talks to, and how the client is configured.
@Suite("Client configuration")
struct ClientFactoryTests {
    static let stored = Credentials(
        server: "stored.local:7000", email: "ada@example.com",
        sessionToken: SessionToken(base64: String(repeating: "A", count: 43) + "=")!)

    @Test("--server, then WORKOUT_SERVER, then the stored server, then 127.0.0.1:7420")
    func precedence() throws {
        let environment = ["WORKOUT_SERVER": "env.local:7100"]
        #expect(try ClientFactory.server(option: "flag.local", environment: environment, stored: Self.stored, discover: { nil }).description == "flag.local:7420")
        #expect(try ClientFactory.server(option: nil, environment: environment, stored: Self.stored).description == "env.local:7100")
        #expect(try ClientFactory.server(option: nil, environment: [:], stored: Self.stored).description == "stored.local:7000")
        #expect(try ClientFactory.server(option: nil, environment: ["WORKOUT_SERVER": ""], stored: nil).description == "127.0.0.1:7420")
    }

    @Test("A malformed address is a usage error")
    func malformed() {
        #expect(throws: CLIError.self) { try ClientFactory.server(option: "host:99999", environment: [:], stored: nil) }
    }

    @Test("Interactive reconnects, and a device name of at most 64 bytes")
    func configuration() throws {
        let configuration = ClientFactory.configuration(for: try #require(ServerAddress("nas.local")))
        #expect(configuration.reconnect == .interactive)
        #expect(configuration.deviceName.hasPrefix("workout CLI"))
        #expect(ClientFactory.deviceName(host: "nas") == "workout CLI on nas")
        #expect(ClientFactory.deviceName(host: String(repeating: "h", count: 100)).utf8.count == 64)
        #expect(ClientFactory.deviceName(host: "") == "workout CLI")
    }

    @Test("NAME.local without a port takes the port its server advertises; with a port, or not found, it stays")
    func advertisedPort() throws {
        let found = [DiscoveredServer(name: "Workout on nas", host: "NAS.local", address: "192.168.1.10", port: 7500, interface: "eth0", family: "IPv4")]
        #expect(try ClientFactory.server(option: "nas.local", environment: [:], stored: nil, discover: { found }).description == "nas.local:7500")
        #expect(try ClientFactory.server(option: "nas.local.", environment: [:], stored: nil, discover: { found }).port == 7500)
        #expect(try ClientFactory.server(option: "nas.local:7420", environment: [:], stored: nil, discover: { found }).port == 7420)
        #expect(try ClientFactory.server(option: "other.local", environment: [:], stored: nil, discover: { found }).port == 7420)
        #expect(try ClientFactory.server(option: "nas.local", environment: [:], stored: nil, discover: { nil }).port == 7420)
        #expect(try ClientFactory.server(option: "192.168.1.10", environment: [:], stored: nil, discover: { Issue.record("looked up"); return found }).port == 7420)
    }

    @Test("An mDNS name the system cannot resolve is resolved through Avahi; other names are left to the system")
    func connectable() throws {
        let unresolvable = ServerAddress(host: "no-such-host-\(UInt32.random(in: 0...UInt32.max)).local", port: 7500)
        #expect(ClientFactory.connectable(unresolvable, resolve: { _ in "192.168.1.10" }) == ServerAddress(host: "192.168.1.10", port: 7500))
        #expect(ClientFactory.connectable(unresolvable, resolve: { _ in nil }) == unresolvable)
        let plain = ServerAddress(host: "127.0.0.1", port: 7420)
        #expect(ClientFactory.connectable(plain, resolve: { _ in Issue.record("resolved"); return nil }) == plain)
        #expect(ClientFactory.isMulticastDNSName("Nas.Local.") && !ClientFactory.isMulticastDNSName(".local") && !ClientFactory.isMulticastDNSName("local.example"))
        #expect(ClientFactory.systemResolves("127.0.0.1"))
    }
}
