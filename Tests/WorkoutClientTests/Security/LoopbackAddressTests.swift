import Testing
@testable import WorkoutClient
#if canImport(Glibc)
import Glibc
#endif

/// Passwords go over plain TCP only to this machine: which addresses count as loopback.
@Suite("Loopback addresses for passwords over plain TCP")
struct LoopbackAddressTests {
    @Test("IP literals are parsed as addresses", arguments: [
        ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("0:0:0:0:0:0:0:1", true),
        ("::ffff:127.0.0.1", true), ("::ffff:10.0.0.1", false), ("10.0.0.1", false), ("192.0.2.1", false),
        ("::2", false), ("fe80::1", false), ("128.0.0.1", false), ("0.0.0.0", false),
    ])
    func literals(text: String, loopback: Bool) {
        #expect(LoopbackAddress.isLoopback(ipLiteral: text) == loopback)
        #expect(ServerAddress(host: text, port: 7420).mayBeLoopback == loopback)
    }

    @Test("Names are not literals, whatever they start with", arguments: [
        "127.evil.example", "127.0.0.1.evil.example", "127.", "127.0.0.1 ", "::1.example", "0127.0.0.1", "::1%lo", "example.com",
    ])
    func names(text: String) {
        #expect(LoopbackAddress.isLoopback(ipLiteral: text) == nil)
        #expect(!ServerAddress(host: text, port: 7420).mayBeLoopback)
    }

    @Test("localhost may be loopback before connecting; the connection's peer address decides")
    func localhost() {
        #expect(ServerAddress(host: "localhost", port: 7420).mayBeLoopback)
        #expect(ServerAddress(host: "LocalHost", port: 7420).mayBeLoopback)
    }

    @Test("The connected peer's address is classified: a socket to 127.0.0.1 is loopback, an unconnected one is not")
    func peer() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        #expect(bound == 0)
        #expect(listen(listener, 1) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        #expect(!LoopbackAddress.isPeerLoopback(client), "not connected")
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } }
        #expect(connected == 0)
        #expect(LoopbackAddress.isPeerLoopback(client))
    }
}
