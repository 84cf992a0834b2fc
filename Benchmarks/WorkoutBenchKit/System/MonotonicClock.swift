#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock every latency is measured with: `clock_gettime(CLOCK_MONOTONIC)`, in nanoseconds.
/// It never jumps with the wall clock; its origin is arbitrary (only differences mean anything).
package enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary origin. Wraps `clock_gettime(CLOCK_MONOTONIC)`,
    /// which POSIX guarantees cannot fail for a valid clock id and a valid pointer.
    @inline(__always)
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
