import Synchronization
import WorkoutTLS
#if canImport(Glibc)
import Glibc
#endif

/// The loopback ports served over TLS in this test process: a ``TestConnection`` to one of
/// them speaks TLS, so that the same tests run over plain TCP and over TLS.
package enum TLSPorts {
    private static let ports = Mutex<Set<Int>>([])

    /// Marks `port` as served over TLS (until ``remove(_:)``).
    package static func insert(_ port: Int) { _ = ports.withLock { $0.insert(port) } }
    /// Forgets `port`.
    package static func remove(_ port: Int) { _ = ports.withLock { $0.remove(port) } }
    /// Whether `port` is served over TLS.
    package static func contains(_ port: Int) -> Bool { ports.withLock { $0.contains(port) } }

    /// The client context test connections share.
    static let clientContext: TLSContext? = try? TLSContext.client()
}

extension TestConnection {
    /// Runs the TLS handshake over the blocking socket (each read bounded by its timeout).
    ///
    /// - Returns: The session, ready for data.
    static func handshakeTLS(on descriptor: Int32) throws -> TLSSession {
        guard let context = TLSPorts.clientContext else { throw Closed() }
        let session = try TLSSession(context: context)
        try session.advanceHandshake()
        for _ in 0..<20 {
            try sendCiphertext(session, descriptor)
            if session.isHandshakeComplete { return session }
            try receiveCiphertext(session, descriptor)
            try session.advanceHandshake()
        }
        throw Closed()
    }

    /// Sends what the session has for the socket.
    static func sendCiphertext(_ session: TLSSession, _ descriptor: Int32) throws {
        while session.hasPendingCiphertext {
            let written = session.pendingCiphertext { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Closed(code: errno) }
            session.ciphertextSent(written)
        }
    }

    /// Reads once from the socket into the session; ``TimedOut`` or ``Closed`` as a plain read.
    static func receiveCiphertext(_ session: TLSSession, _ descriptor: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                try buffer[..<count].withUnsafeBytes { try session.receive($0) }
                return
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw TimedOut() }
            throw Closed(code: count < 0 ? errno : 0)
        }
    }
}

extension TestConnection {
    /// Encrypts `plaintext` as TLS records and sends only their first `count` bytes: a record
    /// the server holds part of and cannot decrypt. The rest is dropped, never sent.
    package func sendPartOfRecords(_ plaintext: [UInt8], count: Int) throws {
        guard let tls else { throw Closed() }
        _ = try plaintext.withUnsafeBytes { try tls.writePlaintext($0) }
        let pending = tls.pendingCiphertextCount
        precondition(count < pending, "the records have only \(pending) bytes")
        let part = tls.pendingCiphertext { Array($0.prefix(count)) }
        tls.ciphertextSent(pending)
        var offset = 0
        while offset < part.count {
            let written = part[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Closed(code: errno) }
            offset += written
        }
    }
}

extension TestConnection {
    /// How a flood of ``sendKeyUpdates(_:sendTimeout:)`` ended.
    package struct FloodResult: Sendable {
        /// KeyUpdate requests handed to the socket.
        package var sent: Int
        /// The `errno` of the send that failed (EAGAIN: the send timeout passed), 0 when all went.
        package var failure: Int32
    }

    /// Sends up to `count` TLS 1.3 KeyUpdate requests (each asks the server to answer with a
    /// KeyUpdate of its own) and reads nothing; stops at the first send that fails or waits
    /// longer than `sendTimeout` seconds.
    package func sendKeyUpdates(_ count: Int, sendTimeout: Double) throws -> FloodResult {
        guard let tls else { throw Closed() }
        var tv = timeval(tv_sec: Int(sendTimeout), tv_usec: Int((sendTimeout - Double(Int(sendTimeout))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < count {
            let batch = min(1_000, count - sent)
            for _ in 0..<batch { try tls.requestKeyUpdate() }
            do {
                try Self.sendCiphertext(tls, descriptor)
            } catch let closed as Closed {
                return FloodResult(sent: sent, failure: closed.code)
            }
            sent += batch
        }
        return FloodResult(sent: sent, failure: 0)
    }
}
