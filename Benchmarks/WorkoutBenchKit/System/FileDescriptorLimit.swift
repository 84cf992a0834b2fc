import SystemCalls
import WorkoutServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which bounds the
/// connections the bench (and the `workoutd` child, which inherits it) can hold.
package enum FileDescriptorLimit {
    /// Raises the soft limit to at least `needed`, up to the hard limit.
    ///
    /// Wraps `getrlimit`/`setrlimit(RLIMIT_NOFILE)`. A child process started afterwards
    /// inherits the raised limit (setrlimit(2): "limits are inherited by a child created by fork").
    ///
    /// - Parameter needed: The descriptors the run needs.
    /// - Returns: The soft limit now in force.
    /// - Throws: ``SystemCallError`` when the limit cannot be read or raised, or when the hard
    ///   limit is below `needed` (`EPERM` then).
    @discardableResult
    package static func raise(toAtLeast needed: Int) throws -> Int {
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        _ = try SystemCall.retrying("getrlimit(RLIMIT_NOFILE)") { getrlimit(resource, &limit) }
        let wanted = rlim_t(max(needed, 0))
        if limit.rlim_cur >= wanted { return Int(clamping: limit.rlim_cur) }
        guard limit.rlim_max == rlim_t.max || limit.rlim_max >= wanted else {
            throw SystemCallError(call: "setrlimit(RLIMIT_NOFILE): the hard limit \(limit.rlim_max) is below the \(needed) descriptors needed;", errno: EPERM)
        }
        limit.rlim_cur = wanted
        _ = try SystemCall.retrying("setrlimit(RLIMIT_NOFILE)") { setrlimit(resource, &limit) }
        return Int(clamping: limit.rlim_cur)
    }
}
