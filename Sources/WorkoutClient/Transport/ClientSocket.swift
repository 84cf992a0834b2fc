import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX side of a client connection: resolving a name, connecting with a time
/// limit, and non-blocking reads and writes on the descriptor.
///
/// The descriptor belongs to whoever called ``connect(to:timeoutMilliseconds:)``; it
/// is closed with ``close(_:)``.
enum ClientSocket {
    /// Why a connection could not be made, in words a person can act on.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.

        var description: String
    }

    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        /// This many bytes moved (more than zero).
        case bytes(Int)
        /// Nothing can move now; wait for the descriptor to become ready.
        case wouldBlock
        /// The peer closed its side (reads only).
        case endOfStream
        /// The connection failed with this `errno`.
        case failed(Int32)
    }

    /// Resolves `address` and connects to the first of its addresses that answers within
    /// the time limit. The returned descriptor is non-blocking, close-on-exec, with
    /// `TCP_NODELAY` (small frames go out at once) and without SIGPIPE where the platform
    /// allows it per socket.
    ///
    /// Blocks the calling thread for at most about `timeoutMilliseconds` per address.
    static func connect(to address: ServerAddress, timeoutMilliseconds: Int32) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw Failure(description: "cannot resolve \(address.host): \(reason)")
        }
        defer { freeaddrinfo(first) }

        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastError = errorText(errno)
                continue
            }
            configure(descriptor)
            let result = systemConnect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result == 0 {
                return descriptor
            }
            let code = errno
            if code == EINPROGRESS, let failure = awaitConnection(descriptor, timeoutMilliseconds: timeoutMilliseconds) {
                lastError = failure
            } else if code == EINPROGRESS {
                return descriptor
            } else {
                lastError = errorText(code)
            }
            close(descriptor)
        }
        throw Failure(description: "cannot connect to \(address): \(lastError)")
    }

    /// Reads what is there into `buffer`.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        transfer(zeroMeansEnd: true) { () throws(SystemCallError) in try SystemCall.retrying("recv") { recv(descriptor, buffer.baseAddress, buffer.count, 0) } }
    }

    /// Writes as much of `bytes` as the socket takes now.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        transfer(zeroMeansEnd: false) { () throws(SystemCallError) in try SystemCall.retrying("send") { send(descriptor, bytes.baseAddress, bytes.count, sendFlags) } }
    }

    /// Closes the descriptor.
    static func close(_ descriptor: Int32) {
        try? SystemCall.close(descriptor)
    }

    /// What a `recv` or `send` through ``SystemCall`` came to (0 bytes read is the end of stream).
    private static func transfer(zeroMeansEnd: Bool, _ call: () throws(SystemCallError) -> Int) -> Transfer {
        do {
            let count = try call()
            return count == 0 && zeroMeansEnd ? .endOfStream : .bytes(count)
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return .wouldBlock
        } catch {
            return .failed(error.errno)
        }
    }

    /// `strerror` for an `errno`.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: - Details

    #if canImport(Glibc)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let sendFlags: Int32 = 0
    #endif

    private static func configure(_ descriptor: Int32) {
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// Waits for a non-blocking connect to finish; `nil` when connected, else why not.
    private static func awaitConnection(_ descriptor: Int32, timeoutMilliseconds: Int32) -> String? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat {
            ready = poll(&entry, 1, timeoutMilliseconds)
        } while ready < 0 && errno == EINTR
        guard ready > 0 else { return ready == 0 ? "timed out" : errorText(errno) }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : errorText(error)
    }
}

/// The C `connect`, under a name that does not collide with ``ClientSocket/connect(to:timeoutMilliseconds:)``.
private func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    return Glibc.connect(descriptor, address, length)
    #else
    return Darwin.connect(descriptor, address, length)
    #endif
}
