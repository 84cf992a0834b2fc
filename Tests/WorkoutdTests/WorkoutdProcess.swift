import Foundation
import ProcessTestSupport
import Testing

/// The built `workoutd` executable, run as a real process.
enum WorkoutdProcess {
    /// What a finished run printed and returned.
    typealias Result = ProcessResult

    /// The path of the `workoutd` binary (`$WORKOUTD_BINARY`, else found beside the tests), or
    /// `nil` if it cannot be found.
    static let binary: String? = BuiltProduct.path(named: "workoutd", override: "WORKOUTD_BINARY")

    /// Runs `workoutd` with `arguments` and waits for it to finish (at most `timeout` seconds, then
    /// it is killed and the test fails).
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - input: what standard input holds; `nil` for `/dev/null` (never a terminal).
    ///   - environment: variables to set; every inherited `WORKOUTD_*` variable is removed first.
    ///   - directory: the working directory.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        in directory: String? = nil, timeout: Double = 120
    ) throws -> Result {
        let binary = try #require(binary, "the workoutd binary was not found next to the tests; set WORKOUTD_BINARY")
        let result = try ProcessRunner.run(
            binary, arguments, input: input, environment: environment, removing: ["WORKOUTD_"], in: directory, timeout: timeout)
        #expect(!result.killed, "workoutd \(arguments) was killed (signal \(result.status))")
        return result
    }
}
