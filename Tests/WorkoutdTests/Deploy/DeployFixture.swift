import Foundation
import ProcessTestSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The package's `deploy/` directory, the built binaries, and `install.sh` run into a throwaway
/// root, for the deployment tests.
enum DeployFixture {
    /// The package's root directory (this file is `<package>/Tests/WorkoutdTests/Deploy/DeployFixture.swift`).
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// `deploy/`.
    static let deployDirectory = packageDirectory + "/deploy"
    /// The directory holding the built `workoutd` and `workout` (the debug build the tests run
    /// beside; never a release build made by the tests).
    static var binDirectory: String? {
        guard let workoutd = BuiltProduct.path(named: "workoutd", override: "WORKOUTD_BINARY") else { return nil }
        let directory = (workoutd as NSString).deletingLastPathComponent
        return FileManager.default.isExecutableFile(atPath: directory + "/workout") ? directory : nil
    }

    /// Why the install tests cannot run here, or `nil` when they can.
    static var skipReason: String? {
        if geteuid() != 0 { return "install.sh creates a system user and chowns files: it needs root" }
        for tool in ["/usr/sbin/useradd", "/usr/bin/setpriv", "/usr/bin/bash"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed"
        }
        if binDirectory == nil { return "the built workoutd and workout were not found" }
        return nil
    }

    /// The three units install.sh installs.
    static let units = ["workoutd.service", "workoutd-backup.service", "workoutd-backup.timer"]

    /// Runs `deploy/install.sh` with `arguments` (at most 120 s).
    static func install(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("/usr/bin/bash", [deployDirectory + "/install.sh"] + arguments, removing: ["WORKOUTD_", "DESTDIR"], timeout: 120)
    }

    /// A fresh throwaway root under a temporary directory that the service user may traverse,
    /// installed into with the built binaries; `body` gets its path and install.sh's result.
    static func withInstalledRoot<R>(_ body: (String, ProcessResult) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { path in
            let root = path + "/root"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            chmod(path, 0o755)
            chmod(root, 0o755)
            let result = try install(["--destdir", root, "--bin-dir", try #require(binDirectory), "--no-start"])
            #expect(result.status == 0, "\(result)")
            return try await body(root, result)
        }
    }

    /// The file's mode bits, owner and group.
    static func attributes(_ path: String) throws -> (mode: Int, owner: UInt32, group: UInt32) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        return (Int(status.st_mode) & 0o7777, status.st_uid, status.st_gid)
    }

    /// The service user's uid and gid in the throwaway root's /etc/passwd.
    static func serviceUser(in root: String, name: String = "workoutd") throws -> (uid: UInt32, gid: UInt32, line: String)? {
        let passwd = try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)
        guard let line = passwd.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
        let fields = line.split(separator: ":", omittingEmptySubsequences: false)
        return (UInt32(fields[2])!, UInt32(fields[3])!, String(line))
    }
}
