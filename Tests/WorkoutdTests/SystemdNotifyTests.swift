import SystemCalls
import Foundation
import ProcessTestSupport
import Storage
import Testing
import TestSupport
@testable import workoutd
#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket.
final class NotifySocket {
    let descriptor: Int32
    /// `NOTIFY_SOCKET`'s value for it: a path, or `@name` in the abstract namespace.
    let address: String

    init(address: String) throws {
        self.address = address
        descriptor = try SystemCall.retrying("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        try withUnsafePointer(to: &socketAddress) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = try SystemCall.retrying("bind", subject: address) { bind(descriptor, raw, length) }
            }
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// The next datagram's text (waiting at most 30 s), or `nil` on timeout.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }
}

/// `Type=notify`: `workoutd serve` says READY=1 once it listens and STOPPING=1 when it stops.
@Suite("workoutd tells systemd when it is ready and when it stops")
struct SystemdNotifyTests {
    @Test("A notification reaches a socket in the abstract namespace and one with a path")
    func notifier() throws {
        try withTemporaryDirectory { path in
            for address in ["@workout-test-\(UUID().uuidString.prefix(8))", path + "/notify"] {
                let socket = try NotifySocket(address: address)
                let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
                #expect(notifier.isActive)
                try notifier.notify(["READY=1", "STATUS=serving"])
                #expect(socket.receive() == "READY=1\nSTATUS=serving\n")
            }
            #expect(!SystemdNotifier(environment: [:]).isActive)
            #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative"]).isActive)
            try SystemdNotifier(environment: [:]).notify(["READY=1"])  // nothing to do, no error
        }
    }

    @Test("serve sends READY=1 after it listens (the port answers by then) and STOPPING=1 on SIGTERM")
    func serveNotifies() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let socket = try NotifySocket(address: path + "/notify")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(WorkoutdProcess.binary))
            process.arguments = ["serve", "--data-dir", data, "--port", "0", "--log-level", "warning", "--transport", "plain"]
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
            environment["NOTIFY_SOCKET"] = path + "/notify"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }

            let ready = try #require(socket.receive(), "no READY=1 within 30 s")
            #expect(ready.hasPrefix("READY=1\nSTATUS=serving on 127.0.0.1:"), "\(ready)")
            // Ready means listening: the port in the status line takes a connection right away.
            let port = try #require(ready.split(separator: "\n")[1].split(separator: ":").last.flatMap { Int($0) })
            let connection = try TestConnection(port: port, timeout: 10)
            try connection.handshake()

            kill(process.processIdentifier, SIGTERM)
            let stopping = try #require(socket.receive(), "no STOPPING=1 within 30 s")
            #expect(stopping.hasPrefix("STOPPING=1\n"), "\(stopping)")
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }
}
