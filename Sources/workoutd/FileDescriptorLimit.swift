import SystemCalls
import Foundation
import Logging
import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The server's share of file descriptors: one per connection, plus a few for the listeners,
/// the store and the logs. systemd starts services with a soft limit of 1024 (and the unit's
/// `LimitNOFILE` as the hard one), so the server raises its soft limit as far as it needs, and
/// refuses to start when even the hard limit cannot hold `limits.max_connections`.
enum FileDescriptorLimit {
    /// Descriptors kept for everything that is not a connection.
    static let reserve = 64

    /// Raises the soft `RLIMIT_NOFILE` to fit `connections` connections, up to the hard limit.
    /// Wraps `getrlimit` and `setrlimit`.
    ///
    /// - Throws: ``ConfigurationError`` naming `limits.max_connections` when the hard limit is too low.
    static func raise(toFit connections: Int, logger: Logger) throws {
        var limit = rlimit()
        try SystemCall.retrying("getrlimit") { getrlimit(RLIMIT_NOFILE_VALUE, &limit) }
        let needed = rlim_t(connections + reserve)
        if limit.rlim_cur >= needed { return }
        guard limit.rlim_max == rlim_t.max || limit.rlim_max >= needed else {
            throw ConfigurationError(
                "limits.max_connections is \(connections), which needs \(needed) file descriptors; this process may open at most \(limit.rlim_max) (LimitNOFILE in workoutd.service, or ulimit -n): lower limits.max_connections or raise the limit")
        }
        let previous = limit.rlim_cur
        limit.rlim_cur = needed
        try SystemCall.retrying("setrlimit") { setrlimit(RLIMIT_NOFILE_VALUE, &limit) }
        logger.debug("raised the open-file limit from \(previous) to \(needed) for \(connections) connections")
    }
}

#if canImport(Glibc)
/// Glibc imports `RLIMIT_NOFILE` as an enum case; `getrlimit` wants its raw value.
private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
#endif
