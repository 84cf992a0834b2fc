#if canImport(WorkoutTLS)
import Foundation
import Synchronization
import TestSupport
import WorkoutClient
import WorkoutTLS
#if canImport(Glibc)
import Glibc
#endif

/// A transport as an app would supply one (``WorkoutTransport``), built only on what the library
/// makes public: a blocking loopback socket, and an OpenSSL session standing in for
/// Network.framework's TLS. During its handshake it accepts any certificate, hands the leaf to
/// the client's key check, and completes only when that passes, as <doc:SupplyingATransport>
/// asks of an Apple-platform transport.
///
/// Safe to send between threads because: the TLS session is touched only under `lock`, one
/// thread at a time flushes its ciphertext (under `flushLock`), and the descriptor is closed
/// once, in `deinit`.
final class TestTransport: WorkoutTransport, @unchecked Sendable {
    /// What the transport is told to do wrong, to see the client refuse it.
    enum Misbehavior: Sendable {
        case none
        /// Completes the TLS handshake without running the key check.
        case skipsKeyCheck
        /// Runs the key check and goes on even though it threw.
        case ignoresRefusal
    }

    private let misbehavior: Misbehavior
    private let lock = NSLock()
    /// Held by whoever flushes ciphertext: the send and receive paths both flush, and two flushes
    /// at once would each write the same pending bytes.
    private let flushLock = NSLock()
    private var descriptor: Int32 = -1
    private var session: TLSSession?
    private let closed = Atomic<Bool>(false)
    /// How many times the client connected through a transport of this kind (for the tests).
    static let connections = Mutex<Int>(0)

    init(_ misbehavior: Misbehavior = .none) {
        self.misbehavior = misbehavior
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    var peerIsLoopback: Bool { true }  // it connects to 127.0.0.1 only

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func connect(to address: ServerAddress, security: TransportSecurity, timeout: Duration, keyCheck: ServerKeyCheck) async throws {
        Self.connections.withLock { $0 += 1 }
        let certificate: [UInt8]? = try await blocking { [self] in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket failed") }
            lock.withLock { self.descriptor = descriptor }
            var peer = sockaddr_in()
            peer.sin_family = sa_family_t(AF_INET)
            peer.sin_addr.s_addr = inet_addr("127.0.0.1")
            peer.sin_port = UInt16(address.port).bigEndian
            let connected = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw Failure(description: "connect failed: \(String(cString: strerror(errno)))") }
            guard security == .tls else { return nil }
            let session = try TLSSession(context: TLSContext.client())
            lock.withLock { self.session = session }
            while true {
                let complete = try lock.withLock { try session.advanceHandshake() }
                try sendPending()
                if complete { break }
                let bytes = try readSocket()
                guard !bytes.isEmpty else { throw Failure(description: "the server closed the connection during the handshake") }
                try lock.withLock { try bytes.withUnsafeBytes { try session.receive($0) } }
            }
            return lock.withLock { session.peerCertificate }
        }
        guard security == .tls else { return }
        switch misbehavior {
        case .skipsKeyCheck:
            return
        case .ignoresRefusal:
            try? await keyCheck.check(certificate: certificate ?? [])
        case .none:
            do {
                try await keyCheck.check(certificate: certificate ?? [])
            } catch {
                close()
                throw error
            }
        }
    }

    func send(_ bytes: [UInt8]) async throws {
        try await blocking { [self] in
            guard let session = lock.withLock({ session }) else { return try writeSocket(bytes) }
            var offset = 0
            while offset < bytes.count {
                offset += try lock.withLock { try bytes[offset...].withUnsafeBytes { try session.writePlaintext($0) } }
                try sendPending()
            }
        }
    }

    func receive() async throws -> [UInt8] {
        try await blocking { [self] in
            guard let session = lock.withLock({ session }) else { return try readSocket() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
            while true {
                let count = try lock.withLock { try buffer.withUnsafeMutableBytes { try session.readPlaintext(into: $0) } }
                if count > 0 { return Array(buffer[..<count]) }
                if lock.withLock({ session.peerClosed }) { return [] }
                let bytes = try readSocket()
                guard !bytes.isEmpty else { return [] }
                try lock.withLock { try bytes.withUnsafeBytes { try session.receive($0) } }
                try sendPending()
            }
        }
    }

    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let descriptor = lock.withLock { self.descriptor }
        // Wakes a blocked read or write; the descriptor itself closes in deinit.
        if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func readSocket() throws -> [UInt8] {
        guard !closed.load(ordering: .acquiring) else { throw Failure(description: "closed") }
        var chunk = [UInt8](repeating: 0, count: 64 * 1_024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw Failure(description: "recv failed: \(String(cString: strerror(errno)))") }
        return Array(chunk[..<count])
    }

    private func writeSocket(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send failed: \(String(cString: strerror(errno)))") }
            offset += count
        }
    }

    /// Writes the ciphertext the session has waiting, in order, one flushing thread at a time.
    private func sendPending() throws {
        guard let session = lock.withLock({ session }) else { return }
        try flushLock.withLock {
            while true {
                let pending: [UInt8] = lock.withLock {
                    let bytes = session.pendingCiphertext { Array($0) }
                    session.ciphertextSent(bytes.count)
                    return bytes
                }
                guard !pending.isEmpty else { return }
                try writeSocket(pending)
            }
        }
    }
}
#endif
