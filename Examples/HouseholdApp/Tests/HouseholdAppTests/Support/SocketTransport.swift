#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import WorkoutClient

/// A plain-TCP transport of the app's own, on POSIX sockets, with each blocking call on a
/// thread of its own: what an app supplies instead of the built-in transport. It has no TLS;
/// asked for TLS it refuses, unless told to misbehave as a broken transport would (for tests
/// that the client refuses such a transport's connection).
final class SocketTransport: WorkoutTransport {
    /// What the transport does when the client asks for TLS.
    enum TLSBehaviour: Sendable {
        /// Fails: it has no TLS (what a correct transport without TLS does).
        case refuse
        /// Returns as if the handshake succeeded, without running the client's key check.
        case skipKeyCheck
        /// Hands the key check a certificate that is not one.
        case presentMalformedCertificate
    }

    private let tls: TLSBehaviour
    private let state = Mutex(State())

    private struct State {
        var descriptor: Int32 = -1
        var peerIsLoopback = false
        var closed = false
    }

    init(tls: TLSBehaviour = .refuse) {
        self.tls = tls
    }

    func connect(to address: ServerAddress, security: TransportSecurity, timeout: Duration, keyCheck: ServerKeyCheck) async throws {
        let descriptor = socket(AF_INET, streamSocketType, 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        let alreadyClosed = state.withLock { state in
            if !state.closed { state.descriptor = descriptor }
            return state.closed
        }
        if alreadyClosed {
            closeSocket(descriptor)
            throw TestFailure("the transport was closed before it connected")
        }
        // Connecting waits at most `timeout` (where the system honours a send timeout for it).
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = UInt16(address.port).bigEndian
        target.sin_addr.s_addr = inet_addr(address.host)
        let failure = await onThread { [target] in
            var target = target
            let connected = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectSocket(descriptor, $0) }
            }
            return connected == 0 ? nil : errno
        }
        if let failure { throw TestFailure("connect() to \(address) failed: errno \(failure)") }
        var none = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        state.withLock { $0.peerIsLoopback = address.host.hasPrefix("127.") }

        guard security == .tls else { return }
        switch tls {
        case .refuse: throw TestFailure("this transport has no TLS")
        case .skipKeyCheck: return
        case .presentMalformedCertificate: try await keyCheck.check(certificate: [0x30, 0x03, 0x02, 0x01, 0x00])
        }
    }

    func send(_ bytes: [UInt8]) async throws {
        let descriptor = state.withLock { $0.descriptor }
        let failure = await onThread { () -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { sendBytes(descriptor, $0) }
                if sent <= 0 { return errno }
                offset += sent
            }
            return nil
        }
        if let failure { throw TestFailure("send() failed: errno \(failure)") }
    }

    func receive() async throws -> [UInt8] {
        let descriptor = state.withLock { $0.descriptor }
        let received = await onThread { () -> Result<[UInt8], TestFailure> in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 { return .failure(TestFailure("recv() failed: errno \(errno)")) }
            return .success(Array(buffer[..<count]))
        }
        return try received.get()
    }

    func close() {
        let descriptor = state.withLock { state in
            defer {
                state.descriptor = -1
                state.closed = true
            }
            return state.descriptor
        }
        if descriptor >= 0 {
            // Ends a send or receive blocked on another thread.
            shutdown(descriptor, Int32(SHUT_RDWR))
            closeSocket(descriptor)
        }
    }

    var peerIsLoopback: Bool { state.withLock { $0.peerIsLoopback } }

    /// Runs the blocking `body` on a new thread, so that it holds up no thread of Swift's pool.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}

// The C calls whose names the transport's own methods shadow, and those that differ by platform.

private func connectSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>) -> Int32 {
    connect(descriptor, address, socklen_t(MemoryLayout<sockaddr_in>.size))
}

private func closeSocket(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func sendBytes(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
    send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
    send(descriptor, bytes.baseAddress, bytes.count, 0)
    #endif
}
