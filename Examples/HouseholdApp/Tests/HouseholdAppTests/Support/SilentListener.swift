#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback socket that listens and never accepts: the kernel completes a client's TCP
/// connection, and nothing ever answers its TLS handshake. A client stays "connecting".
struct SilentListener: ~Copyable {
    /// Its port on 127.0.0.1.
    let port: Int
    private let descriptor: Int32

    /// Listens on a free loopback port.
    ///
    /// - Throws: ``TestFailure`` when no socket can be made, bound or listened on.
    init() throws {
        let descriptor = socket(AF_INET, streamSocketType, 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            let failure = errno
            close(descriptor)
            throw TestFailure("a loopback listener could not be made: errno \(failure)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}

#if canImport(Glibc)
/// `SOCK_STREAM` as `socket()` takes it.
let streamSocketType = Int32(SOCK_STREAM.rawValue)
#else
/// `SOCK_STREAM` as `socket()` takes it.
let streamSocketType = SOCK_STREAM
#endif
