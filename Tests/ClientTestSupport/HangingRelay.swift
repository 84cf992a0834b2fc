#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A loopback relay in front of a server, which can hang: until ``hang()`` it passes bytes both
/// ways; from then on every connection stays open and nothing more passes (what arrives is read
/// and dropped, and new connections are accepted and never answered), as with a server process
/// that hung or a network path that silently drops everything; ``recover()`` lets new
/// connections through again. It counts the connections it accepted. For keepalive tests.
///
/// Each connection has one thread, and one thread accepts; each waits at most 100 ms at a time,
/// so all end by themselves shortly after ``stop()``.
package final class HangingRelay: Sendable {
    /// The relay's loopback port (clients connect here).
    package let port: Int
    private let listener: Int32
    private let targetPort: Int
    private let state = Mutex(State())

    private struct State {
        var hung = false
        var stopped = false
        /// Connections accepted while hung, held open unanswered until ``stop()``.
        var held: [Int32] = []
        var accepted = 0
    }

    /// Listens on a free loopback port and relays to the server on `targetPort`.
    ///
    /// - Throws: ``UnusedLoopbackPortError`` when no listening socket can be made.
    package init(to targetPort: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw UnusedLoopbackPortError() }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw UnusedLoopbackPortError()
        }
        self.listener = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.targetPort = targetPort
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// From now on nothing passes, either way, and new connections are never answered.
    package func hang() {
        state.withLock { $0.hung = true }
    }

    /// New connections are relayed again (those accepted while hung stay unanswered).
    package func recover() {
        state.withLock { $0.hung = false }
    }

    /// How many connections the relay accepted, hung or not.
    package var acceptedConnections: Int {
        state.withLock { $0.accepted }
    }

    /// Stops relaying; every connection and the listener close within about 100 ms.
    package func stop() {
        let held = state.withLock { state -> [Int32] in
            state.stopped = true
            defer { state.held = [] }
            return state.held
        }
        for descriptor in held { close(descriptor) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }
    private var isHung: Bool { state.withLock { $0.hung } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            guard Self.wait(for: [listener]).first == true else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let parked = state.withLock { state -> Bool in
                state.accepted += 1
                guard state.hung, !state.stopped else { return false }
                state.held.append(client)
                return true
            }
            if parked { continue }
            guard let server = connectToTarget() else {
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in relay(client, server) }
        }
    }

    /// Passes bytes between the two until either side closes or the relay stops.
    private func relay(_ client: Int32, _ server: Int32) {
        defer {
            close(client)
            close(server)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !isStopped {
            let ready = Self.wait(for: [client, server])
            for (index, isReady) in ready.enumerated() where isReady {
                let from = index == 0 ? client : server
                let to = index == 0 ? server : client
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                if isHung { continue }
                var sent = 0
                while sent < count {
                    let wrote = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, count - sent) }
                    guard wrote > 0 else { return }
                    sent += wrote
                }
            }
        }
    }

    private func connectToTarget() -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = Self.loopback(port: targetPort)
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Which of `descriptors` are readable (or closed), waiting at most 100 ms.
    private static func wait(for descriptors: [Int32]) -> [Bool] {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 100) > 0 else { return descriptors.map { _ in false } }
        return polled.map { $0.revents != 0 }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
