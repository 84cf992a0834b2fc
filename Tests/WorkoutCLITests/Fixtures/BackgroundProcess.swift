import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process left running while the test does other things (`workout watch`), its output
/// going to files that the test can poll.
final class BackgroundProcess: @unchecked Sendable {
    // Safe because: the process handle is used from one test thread at a time; the files are
    // only read.
    private let process = Process()
    private let scratch: URL
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `executable` with `arguments` and `environment` (standard input `/dev/null`).
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("background-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        outputFile = scratch.appendingPathComponent("stdout")
        errorFile = scratch.appendingPathComponent("stderr")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// What it wrote to standard output so far.
    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// What it wrote to standard error so far.
    var error: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Waits until standard error contains `text` (polling), or the time runs out or the
    /// process ends.
    ///
    /// - Returns: Whether `text` appeared.
    func waitForError(containing text: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if error.contains(text) { return true }
            if !process.isRunning { return error.contains(text) }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the process to end (at most `timeout` seconds, then it is terminated).
    ///
    /// - Returns: Its exit status, or `nil` when it had to be terminated.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
