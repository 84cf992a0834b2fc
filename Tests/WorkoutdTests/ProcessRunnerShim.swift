import ProcessTestSupport

/// Runs any executable as the `workoutd` tests run `workoutd`: inherited `WORKOUTD_*` variables
/// removed, a time limit.
enum ProcessRunnerShim {
    /// Runs `executable` with `arguments` (at most `timeout` seconds).
    static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        in directory: String? = nil, timeout: Double = 120
    ) throws -> ProcessResult {
        try ProcessRunner.run(executable, arguments, input: input, environment: environment, removing: ["WORKOUTD_"], in: directory, timeout: timeout)
    }
}
