import Testing
import WorkoutBenchKit

/// `--server host:port`.
@Suite("Server address")
struct ServerAddressTests {
    @Test("host:port parses; the port must be 1...65535 and the host non-empty, without colons", arguments: [
        ("127.0.0.1:7420", "127.0.0.1", 7420),
        ("localhost:1", "localhost", 1),
        ("box.lan:65535", "box.lan", 65535),
    ])
    func parses(_ text: String, _ host: String, _ port: Int) throws {
        let address = try #require(ServerAddress(parsing: text))
        #expect(address.host == host && address.port == port)
        #expect(address.description == text)
    }

    @Test("Malformed addresses are nil", arguments: ["", "7420", ":7420", "host:", "host:0", "host:65536", "host:x", "::1:7420"])
    func refuses(_ text: String) {
        #expect(ServerAddress(parsing: text) == nil)
    }
}
