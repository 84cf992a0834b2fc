import Foundation
import ProcessTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Tests/PowerCutFS's file system mounted over a backing directory of the test's own: it holds
/// every write in memory until the writer syncs it, and a cut drops what is held, as a power
/// cut drops a disk's volatile cache.
struct PowerCutFileSystem {
    /// Why the file system cannot run here (no `/dev/fuse`, no `fusermount3`, no libfuse3
    /// headers or C compiler), or `nil` when it can.
    static var unavailableReason: String? {
        if !FileManager.default.fileExists(atPath: "/dev/fuse") { return "no /dev/fuse" }
        if executable("fusermount3") == nil { return "no fusermount3 (apt-get install fuse3)" }
        if compiler == nil { return "no C compiler (clang or cc)" }
        if !FileManager.default.fileExists(atPath: "/usr/include/fuse3/fuse.h") { return "no libfuse3 headers (apt-get install libfuse3-dev)" }
        return nil
    }

    /// The directory every synced byte reaches.
    let backing: String
    /// Where the file system is mounted.
    let mountPoint: String
    private let daemon: Process

    /// Builds the file system into `directory` and mounts it at `directory/mnt` over
    /// `directory/backing`.
    init(in directory: String) throws {
        backing = directory + "/backing"
        mountPoint = directory + "/mnt"
        for path in [backing, mountPoint] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let binary = directory + "/powercutfs"
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PowerCutFS/powercutfs.c").path
        let build = try ProcessRunner.run(
            Self.compiler!, ["-O2", "-Wall", "-Werror", "-I/usr/include/fuse3", "-o", binary, source, "-lfuse3", "-lpthread"], timeout: 120)
        guard build.status == 0 else { throw Failure("building powercutfs failed: \(build)") }
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: binary)
        daemon.arguments = [backing, mountPoint, "-f"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        try mount()
    }

    /// Waits (bounded) until the mount answers.
    private func mount() throws {
        for _ in 0..<200 {
            if (try? counters()) != nil { return }
            guard daemon.isRunning else { throw Failure("powercutfs exited with status \(daemon.terminationStatus)") }
            usleep(25_000)
        }
        throw Failure("powercutfs did not mount within 5 s")
    }

    /// Drops every write not yet synced.
    func cut() throws {
        try Data("cut\n".utf8).write(to: URL(fileURLWithPath: mountPoint + "/.powercut"))
    }

    /// The file system's counters: syncs, dir_syncs, bytes_written, bytes_synced,
    /// bytes_dropped, cuts.
    func counters() throws -> [String: UInt64] {
        let text = try String(contentsOfFile: mountPoint + "/.powercut", encoding: .utf8)
        var counters: [String: UInt64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = UInt64(parts[1]) { counters[String(parts[0])] = value }
        }
        guard counters["cuts"] != nil else { throw Failure("unexpected counters: \(text)") }
        return counters
    }

    /// Unmounts and waits (bounded) for the daemon to end.
    func unmount() {
        _ = try? ProcessRunner.run(Self.executable("fusermount3")!, ["-u", mountPoint], timeout: 30)
        for _ in 0..<200 where daemon.isRunning { usleep(25_000) }
        if daemon.isRunning {
            daemon.terminate()
            daemon.waitUntilExit()
        }
    }

    private static var compiler: String? { executable("clang") ?? executable("cc") }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
