import Foundation
import ProcessTestSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A household served by a real `workoutd serve` process on a free port, with its owner
/// created by `workoutd create-owner`, and the built `workout` run against it as a process.
///
/// Every `workout` run gets its own environment: `WORKOUT_CONFIG_DIR` in the test's temporary
/// directory (never the developer's), `TZ=Europe/Berlin`, `COLUMNS=80`, and no inherited
/// `WORKOUT_*` or `XDG_CONFIG_HOME` variable.
struct CLIHousehold: Sendable {
    /// The owner's email and password.
    static let ownerEmail = "ada@example.com"
    static let ownerPassword = "correct horse battery"

    /// The test's temporary directory.
    let directory: String
    /// The server.
    let server: ServeProcess

    /// The server's address, `127.0.0.1:PORT`.
    var address: String { "127.0.0.1:\(server.port)" }

    /// The configuration directory `workout` runs use unless told otherwise.
    var configDirectory: String { directory + "/config" }

    /// The credentials file in ``configDirectory``.
    var credentialsFile: String { configDirectory + "/credentials.json" }

    /// The server's data directory.
    var dataDirectory: String { directory + "/data" }

    /// Runs `body` with a fresh household; the server is stopped and the directory removed after.
    ///
    /// - Parameter transport: How the server listens (`workoutd --transport`): `plain`, or `tls`
    ///   for the tests of trust (a `workout` run then needs `WORKOUT_TRANSPORT=tls`).
    static func with<R>(transport: String = "plain", _ body: (CLIHousehold) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { directory in
            let data = directory + "/data"
            let workoutd = try #require(BuiltProduct.path(named: "workoutd", override: "WORKOUTD_BINARY"), "workoutd was not built")
            let created = try await blocking {
                try ProcessRunner.run(
                    workoutd,
                    ["create-owner", "--data-dir", data, "--email", ownerEmail, "--first-name", "Ada", "--last-name", "Lovelace",
                     "--time-zone", "Europe/Berlin", "--password-stdin"],
                    input: ownerPassword + "\n", removing: ["WORKOUTD_"], timeout: 60)
            }
            try #require(created.status == 0 && !created.killed, "\(created)")
            let server = try await blocking { try ServeProcess(dataDirectory: data, transport: transport) }
            // Waiting for processes happens on threads of their own, never in Swift's small
            // cooperative pool, which other suites' in-process servers need.
            let result: R
            do {
                result = try await body(CLIHousehold(directory: directory, server: server))
            } catch {
                _ = try? await blocking { server.stop(SIGTERM).status }
                throw error
            }
            _ = try await blocking { server.stop(SIGTERM).status }
            return result
        }
    }

    /// Runs the built `workout` and waits for it (at most `timeout` seconds).
    ///
    /// - Parameters:
    ///   - arguments: The arguments after `workout`.
    ///   - input: Standard input (`nil`: `/dev/null`).
    ///   - environment: Variables over the defaults above.
    ///   - configDirectory: Another configuration directory (another member's).
    ///   - timeout: The time limit; running out fails the test.
    /// - Returns: Its exit status and output.
    func workout(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], configDirectory: String? = nil,
        timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        try await Self.workout(
            arguments, input: input,
            environment: ["WORKOUT_CONFIG_DIR": configDirectory ?? self.configDirectory].merging(environment) { _, new in new },
            timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Runs the built `workout` with the test environment (no household needed).
    static func workout(
        _ arguments: [String], input: String? = nil, environment: [String: String], timeout: Double = 30,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        let binary = try #require(workoutBinary, "the workout binary was not found next to the tests; set WORKOUT_BINARY")
        // The fixture's workoutd listens on loopback in plain TCP (ServeProcess); TLS has its own tests.
        let variables = ["TZ": "Europe/Berlin", "COLUMNS": "80", "WORKOUT_TRANSPORT": "plain"].merging(environment) { _, new in new }
        let result = try await blocking {
            try ProcessRunner.run(
                binary, arguments, input: input, environment: variables,
                removing: ["WORKOUT_", "WORKOUTD_", "XDG_CONFIG_HOME"], timeout: timeout)
        }
        #expect(!result.killed, "workout \(arguments) was killed or timed out: \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// The built `workout`.
    static let workoutBinary = BuiltProduct.path(named: "workout", override: "WORKOUT_BINARY")

    /// Signs the owner in (password on standard input), expecting success.
    @discardableResult
    func login(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProcessResult {
        let result = try await workout(
            ["login", "--server", address, "--email", Self.ownerEmail, "--password-stdin"], input: Self.ownerPassword + "\n",
            sourceLocation: sourceLocation)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Runs `workout` expecting exit 0, and returns its standard output.
    func succeed(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], configDirectory: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let result = try await workout(
            arguments, input: input, environment: environment, configDirectory: configDirectory, sourceLocation: sourceLocation)
        #expect(result.status == 0, "workout \(arguments): \(result)", sourceLocation: sourceLocation)
        return result.output
    }

    /// Runs `workout ... --json` expecting exit 0, and decodes its output as a JSON object.
    func json(
        _ arguments: [String], configDirectory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let output = try await succeed(arguments + ["--json"], configDirectory: configDirectory, sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(output)", sourceLocation: sourceLocation)
    }

    /// Runs `workout ... --json` expecting exit 0, and decodes its output as a JSON array.
    func jsonArray(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String: Any]] {
        let output = try await succeed(arguments + ["--json"], sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [[String: Any]], "not a JSON array: \(output)", sourceLocation: sourceLocation)
    }
}
