import SystemCalls
import Foundation
import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells systemd how the service is doing, for `Type=notify` units: `READY=1` once the server
/// listens (so `systemctl start` returns when it really serves), `STOPPING=1` when a shutdown
/// begins, `STATUS=…` lines for `systemctl status`.
///
/// The protocol (sd_notify(3), "Notes"): the environment variable `NOTIFY_SOCKET` names an
/// `AF_UNIX` socket; a path that begins with `@` is in the abstract namespace (the `@` stands
/// for a NUL byte). Each notification is one datagram of newline-separated `KEY=VALUE`
/// assignments, sent with `SOCK_DGRAM`. Without the variable (not started by systemd) nothing
/// is sent. Errors are reported but never fatal: a server that cannot tell systemd it is ready
/// still serves (and systemd's start timeout says so).
struct SystemdNotifier: Sendable {
    /// The socket's address as `NOTIFY_SOCKET` gives it, or `nil` when not under systemd.
    let socketPath: String?

    /// Reads `NOTIFY_SOCKET` from `environment`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        socketPath = (path.hasPrefix("/") || path.hasPrefix("@")) && path.utf8.count > 1 ? path : nil
    }

    /// Whether systemd asked for notifications.
    var isActive: Bool { socketPath != nil }

    /// Sends one notification, e.g. `["READY=1", "STATUS=serving on 0.0.0.0:7420"]`.
    ///
    /// Wraps `socket(AF_UNIX, SOCK_DGRAM)`, `sendto` and `close`.
    ///
    /// - Throws: ``SystemCallError`` when the socket cannot be made or the datagram not sent.
    func notify(_ assignments: [String]) throws(SystemCallError) {
        guard let socketPath else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw SystemCallError(call: "sendto", errno: ENAMETOOLONG, subject: socketPath)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { destination in
            destination.copyBytes(from: pathBytes)
        }
        // An abstract address is exactly as long as its bytes; a path one counts its NUL too.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let descriptor = try SystemCall.retrying("socket", subject: socketPath) {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { try? SystemCall.close(descriptor, subject: socketPath) }
        let message = Array((assignments.joined(separator: "\n") + "\n").utf8)
        let sent = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    Result { () throws(SystemCallError) in
                        try SystemCall.retrying("sendto", subject: socketPath) {
                            sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                        }
                    }
                }
            }
        }
        _ = try sent.get()
    }
}
