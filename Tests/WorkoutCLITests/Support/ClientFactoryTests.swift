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
        #expect(try ClientFactory.server(option: "flag.local", environment: environment, stored: Self.stored).description == "flag.local:7420")
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
}
