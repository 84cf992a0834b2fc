package import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls the server makes, each through ``SystemCall.retrying(_:_:)``.
package enum Socket {
    /// A non-blocking listening socket bound to `address`.
    ///
    /// - Returns: the descriptor and the address it is bound to (its real port when `address`
    ///   had port 0).
    package static func listen(on address: SocketAddress, backlog: Int32) throws -> (descriptor: Int32, address: SocketAddress) {
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        let descriptor = try SystemCall.retrying("socket") { socket(address.family, type, 0) }
        do {
            var yes: Int32 = 1
            _ = try SystemCall.retrying("setsockopt(SO_REUSEADDR)") {
                setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            }
            if address.family == AF_INET6 {
                // Listen on IPv6 only here: an IPv4 address gets its own socket.
                _ = try SystemCall.retrying("setsockopt(IPV6_V6ONLY)") {
                    setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
                }
            }
            _ = try address.storage.withUnsafeBytes { raw in
                try SystemCall.retrying("bind(\(address))") {
                    bind(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
                }
            }
            _ = try SystemCall.retrying("listen") { Glibc.listen(descriptor, backlog) }
            return (descriptor, try localAddress(of: descriptor))
        } catch {
            try? SystemCall.close(descriptor)
            throw error
        }
    }

    /// The address a socket is bound to.
    package static func localAddress(of descriptor: Int32) throws -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                try SystemCall.retrying("getsockname") { getsockname(descriptor, address, &length) }
            }
        }
        return withUnsafePointer(to: &storage) { SocketAddress(UnsafeRawPointer($0), length: length) }
    }

    /// Accepts one connection, non-blocking and close-on-exec, or returns `nil` when none waits.
    package static func accept(from listener: Int32) throws -> (descriptor: Int32, peer: SocketAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let descriptor: Int32
        do {
            descriptor = try withUnsafeMutablePointer(to: &storage) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    try SystemCall.retrying("accept") { Glibc.accept(listener, address, &length) }
                }
            }
        } catch let error as SystemCallError {
            if error.errno == EAGAIN || error.errno == EWOULDBLOCK || error.errno == ECONNABORTED { return nil }
            throw error
        }
        do {
            let flags = try SystemCall.retrying("fcntl(F_GETFL)") { fcntl(descriptor, F_GETFL) }
            _ = try SystemCall.retrying("fcntl(F_SETFL)") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
            _ = try SystemCall.retrying("fcntl(F_SETFD)") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        } catch {
            try? SystemCall.close(descriptor)
            throw error
        }
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        let peer = withUnsafePointer(to: &storage) { SocketAddress(UnsafeRawPointer($0), length: length) }
        return (descriptor, peer)
    }

    /// Reads what is there into `buffer`, retrying EINTR.
    ///
    /// - Returns: the bytes read, 0 at end of stream, or `nil` when the read would block.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        do {
            return try SystemCall.retrying("read") { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// Writes what the socket takes of `bytes`, retrying EINTR (never raising SIGPIPE).
    ///
    /// - Returns: the bytes written (0 when the write would block).
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        do {
            return try SystemCall.retrying("send") { send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return 0
        }
    }
}
