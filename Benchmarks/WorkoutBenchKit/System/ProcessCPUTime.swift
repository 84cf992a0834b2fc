#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time the bench itself has used, to show what the load generator costs beside the
/// server it measures.
package enum ProcessCPUTime {
    /// User plus system CPU time of this process so far, µs. Wraps `getrusage(RUSAGE_SELF)`.
    package static func microseconds() -> UInt64 {
        var usage = rusage()
        #if os(Linux)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func micro(_ time: timeval) -> UInt64 { UInt64(max(0, time.tv_sec)) * 1_000_000 + UInt64(max(0, time.tv_usec)) }
        return micro(usage.ru_utime) + micro(usage.ru_stime)
    }
}
