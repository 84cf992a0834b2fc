import Foundation

/// The `workoutd` these tests run, from the directory the environment variable `WORKOUT_BIN`
/// names (the repository's `.build/debug`, or what `swift build --show-bin-path` prints there).
enum Workoutd {
    /// What a `workoutd` command printed (standard output and error together), and its exit status.
    struct Result {
        var status: Int32
        var output: String
    }

    /// The `workoutd` executable.
    ///
    /// - Throws: ``TestFailure`` when `WORKOUT_BIN` is not set or holds no `workoutd`.
    static func executable() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = environment["WORKOUT_BIN"], !directory.isEmpty else {
            throw TestFailure(
                "WORKOUT_BIN is not set: set it to the directory holding workoutd, e.g. the repository's .build/debug "
                    + "(`swift build --show-bin-path` at the repository's root, after `swift build` there)")
        }
        let executable = URL(fileURLWithPath: directory).appendingPathComponent("workoutd")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw TestFailure(
                "WORKOUT_BIN is \(directory), which holds no workoutd: build the repository's root package (`swift build`) "
                    + "and set WORKOUT_BIN to the directory holding workoutd")
        }
        return executable
    }

    /// The environment `workoutd` runs with: this process's, without any `WORKOUTD_` setting,
    /// so that only the tests' arguments configure it.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
    }

    /// Runs `workoutd arguments…` to its end (an admin command: `create-owner`, `invite`,
    /// `rotate-key`, `fingerprint`), with `input` and a newline as its standard input.
    ///
    /// - Throws: ``TestFailure`` when `workoutd` is missing or did not finish within `timeout`
    ///   (it is then terminated); any error starting it.
    static func run(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(30)) async throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = environment
        // The output goes to a file, which never fills up as a pipe nobody reads would.
        let outputDirectory = try TemporaryDirectory("workoutd-output")
        defer { outputDirectory.remove() }
        let outputPath = outputDirectory.file("output")
        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
            throw TestFailure("could not create \(outputPath)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = inputPipe
        try process.run()
        if let input {
            try inputPipe.fileHandleForWriting.write(contentsOf: Data((input + "\n").utf8))
        }
        try inputPipe.fileHandleForWriting.close()

        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now > deadline {
                process.terminate()
                throw TestFailure("workoutd \(arguments.joined(separator: " ")) did not finish within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        return Result(status: process.terminationStatus, output: text)
    }

    /// Runs `workoutd arguments…` and returns its output.
    ///
    /// - Throws: ``TestFailure`` with the output when it exits with a failure status; what
    ///   ``run(_:input:timeout:)`` throws.
    static func succeeding(_ arguments: [String], input: String? = nil) async throws -> String {
        let result = try await run(arguments, input: input)
        guard result.status == 0 else {
            throw TestFailure("workoutd \(arguments.first ?? "") failed (status \(result.status)): \(result.output)")
        }
        return result.output
    }
}
