import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the server process has used of the machine: CPU time and resident memory, as
/// `Admin.Stats` reports them (`process_cpu_us`, `rss_anon_bytes`, `rss_bytes`).
package struct ProcessUsage: Sendable, Hashable {
    /// User plus system CPU time since the process started, µs.
    package var cpuMicroseconds: UInt64
    /// Anonymous resident memory (heap, stacks), bytes; 0 where unknown.
    package var residentAnonymousBytes: UInt64
    /// All resident memory, mapped files included, bytes; 0 where unknown.
    package var residentBytes: UInt64
    /// Open file descriptors (entries of `/proc/self/fd`); 0 where unknown.
    package var openDescriptors: UInt32 = 0

    /// The figures of the calling process now.
    ///
    /// CPU time wraps `getrusage(RUSAGE_SELF)`; memory is read from `/proc/self/status`
    /// (`RssAnon`, `VmRSS`) on Linux and is 0 elsewhere.
    package static func current() -> ProcessUsage {
        var usage = rusage()
        var cpu: UInt64 = 0
        #if os(Linux)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        if getrusage(who, &usage) == 0 {
            cpu = microseconds(usage.ru_utime) + microseconds(usage.ru_stime)
        }
        var memory = (anonymous: UInt64(0), resident: UInt64(0))
        var descriptors: UInt32 = 0
        #if os(Linux)
        if let status = readStatusFile() { memory = residentMemory(inStatus: status) }
        descriptors = countOpenDescriptors()
        #endif
        return ProcessUsage(cpuMicroseconds: cpu, residentAnonymousBytes: memory.anonymous, residentBytes: memory.resident,
                            openDescriptors: descriptors)
    }

    private static func microseconds(_ time: timeval) -> UInt64 {
        UInt64(max(0, time.tv_sec)) * 1_000_000 + UInt64(max(0, time.tv_usec))
    }

    /// The `RssAnon` and `VmRSS` lines of a `/proc/<pid>/status` text, in bytes (0 when absent).
    ///
    /// proc(5): "RssAnon  Size of resident anonymous memory" and "VmRSS  Resident set size",
    /// both given in kB (kibibytes).
    package static func residentMemory(inStatus text: String) -> (anonymous: UInt64, resident: UInt64) {
        var anonymous: UInt64 = 0
        var resident: UInt64 = 0
        for line in text.split(separator: "\n") {
            let isAnonymous = line.hasPrefix("RssAnon:")
            guard isAnonymous || line.hasPrefix("VmRSS:") else { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kibibytes = UInt64(fields[1]) else { continue }
            if isAnonymous { anonymous = kibibytes * 1024 } else { resident = kibibytes * 1024 }
        }
        return (anonymous, resident)
    }

    #if os(Linux)
    /// The entries of `/proc/self/fd` other than `.` and `..` (the directory's own descriptor,
    /// open while counting, is not subtracted: the figure is for trends, not exact counts).
    private static func countOpenDescriptors() -> UInt32 {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count: UInt32 = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) }
            if !isDot { count += 1 }
        }
        return count
    }

    /// `/proc/self/status`, read with plain system calls (a few KiB, no Foundation).
    private static func readStatusFile() -> String? {
        guard let descriptor = try? SystemCall.retrying("open(/proc/self/status)", { open("/proc/self/status", O_RDONLY | O_CLOEXEC) }) else {
            return nil
        }
        defer { try? SystemCall.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                try? SystemCall.retrying("read(/proc/self/status)") { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            guard let count else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    #endif
}
