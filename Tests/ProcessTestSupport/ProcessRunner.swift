import Dispatch
import Foundation

/// What a finished process printed and returned.
package struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit code, or the signal number when ``killed`` is true.
    package var status: Int32
    /// Standard output.
    package var output: String
    /// Standard error.
    package var error: String
    /// Whether a signal ended the process (the time limit's, or another).
    package var killed: Bool
    /// Whether the time limit ran out and the process was terminated.
    package var timedOut: Bool
    /// How long it ran, in seconds.
    package var seconds: Double

    package var description: String {
        let ending = timedOut ? "timed out after \(seconds) s" : killed ? "killed by signal \(status)" : "exit \(status)"
        return "\(ending)\n--- stdout\n\(output)--- stderr\n\(error)"
    }
}

/// Runs an executable to completion with a time limit, its output captured in files (a pipe
/// that nobody reads could fill up and stall the child).
package enum ProcessRunner {
    /// Runs `executable` with `arguments` and waits for it (at most `timeout` seconds, then it
    /// is terminated and the result says so).
    ///
    /// - Parameters:
    ///   - executable: The binary's path.
    ///   - arguments: The arguments after the program name.
    ///   - input: What standard input holds; `nil` for `/dev/null` (never a terminal).
    ///   - environment: Variables to set, over the inherited ones.
    ///   - removing: Prefixes of inherited variables to drop first (e.g. `WORKOUTD_`), so the
    ///     developer's own settings cannot leak into a test.
    ///   - directory: The working directory (`nil`: the test's).
    ///   - timeout: The time limit, in seconds.
    /// - Returns: The exit status and output.
    /// - Throws: When the scratch files cannot be made or the process cannot be started.
    package static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        removing prefixes: [String] = [], in directory: String? = nil, timeout: Double = 60
    ) throws -> ProcessResult {
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("process-run-\(UUID().uuidString)")
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        let inputFile = scratch.appendingPathComponent("stdin")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        try Data((input ?? "").utf8).write(to: inputFile)

        var variables = ProcessInfo.processInfo.environment.filter { variable in
            !prefixes.contains { variable.key.hasPrefix($0) }
        }
        variables.merge(environment) { _, new in new }
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        // A descriptor of its own: FileHandle.nullDevice has none on Linux.
        let standardInput = try FileHandle(forReadingFrom: input == nil ? URL(fileURLWithPath: "/dev/null") : inputFile)
        defer {
            try? output.close()
            try? error.close()
            try? standardInput.close()
        }
        let started = Date()
        // Not Foundation's Process: its start crashes now and then on Linux (see Spawn).
        let pid = try Spawn.start(
            executable, arguments, environment: variables, directory: directory,
            input: standardInput.fileDescriptor, output: output.fileDescriptor, error: error.fileDescriptor)
        let expired = TimeoutFlag()
        let finished = TimeoutFlag()
        let watchdog = DispatchWorkItem {
            if !finished.isSet {
                expired.set()
                kill(pid, SIGTERM)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let ending = Spawn.wait(pid)
        finished.set()
        watchdog.cancel()
        let (status, killed): (Int32, Bool) = switch ending {
        case .exited(let code): (code, false)
        case .signaled(let signal): (signal, true)
        }
        return ProcessResult(
            status: status,
            output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self),
            killed: killed,
            timedOut: expired.isSet,
            seconds: Date().timeIntervalSince(started))
    }
}

/// A flag the watchdog sets from another thread.
private final class TimeoutFlag: @unchecked Sendable {
    // Safe because: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    var isSet: Bool { lock.withLock { value } }
}
