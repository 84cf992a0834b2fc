import Foundation
import Testing
import TestSupport

/// Bad input ends with one clear message on standard error and the documented exit code, never
/// a crash or a stack trace.
@Suite("workoutd's answers to bad input", .serialized)
struct BadInputTests {
    /// A bad invocation and what it must answer.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The arguments; `DATA` is replaced with a data directory holding an owner, `FILE` with a
        /// plain file, `EMPTY` with an empty directory, `CONFIG` with a configuration file
        /// holding an unknown key.
        var arguments: [String]
        var input: String?
        var environment: [String: String] = [:]
        var status: Int32
        var message: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a data directory that is a file", arguments: ["members", "--data-dir", "FILE"],
             status: 2, message: "exists and is not a directory"),
        Case(name: "create-owner on a data directory that is a file",
             arguments: ["create-owner", "--data-dir", "FILE", "--email", "a@b.c", "--first-name", "A", "--password-stdin"],
             input: "long enough\n", status: 2, message: "exists and is not a directory"),
        Case(name: "a data directory without a store", arguments: ["members", "--data-dir", "EMPTY"],
             status: 2, message: "there is no Workout store in"),
        Case(name: "an unknown option", arguments: ["members", "--data-dir", "DATA", "--bogus"],
             status: 1, message: "Unknown option '--bogus'"),
        Case(name: "an unknown subcommand", arguments: ["frobnicate"], status: 1, message: "frobnicate"),
        Case(name: "a missing required option", arguments: ["create-owner", "--data-dir", "EMPTY", "--first-name", "A"],
             status: 1, message: "--email"),
        Case(name: "an invalid email",
             arguments: ["create-owner", "--data-dir", "EMPTY", "--email", "not-an-email", "--first-name", "A", "--password-stdin"],
             input: "long enough\n", status: 1, message: "--email must contain exactly one '@'"),
        Case(name: "an unknown time zone",
             arguments: ["create-owner", "--data-dir", "EMPTY", "--email", "a@b.c", "--first-name", "A", "--time-zone", "Mars/Olympus",
                         "--password-stdin"],
             input: "long enough\n", status: 1, message: "--time-zone must be an IANA time zone"),
        Case(name: "a short password",
             arguments: ["create-owner", "--data-dir", "EMPTY", "--email", "a@b.c", "--first-name", "A", "--password-stdin"],
             input: "short\n", status: 1, message: "password must be 8 to 256 bytes long"),
        Case(name: "no password on standard input",
             arguments: ["create-owner", "--data-dir", "EMPTY", "--email", "a@b.c", "--first-name", "A", "--password-stdin"],
             input: "", status: 1, message: "standard input ended before a password line"),
        Case(name: "a password asked for without a terminal",
             arguments: ["create-owner", "--data-dir", "EMPTY", "--email", "a@b.c", "--first-name", "A"],
             status: 1, message: "pass --password-stdin"),
        Case(name: "a short new password", arguments: ["reset-password", "--data-dir", "DATA", "--email", "ada@example.com", "--password-stdin"],
             input: "short\n", status: 1, message: "password must be 8 to 256 bytes long"),
        Case(name: "an invite lifetime that does not parse", arguments: ["invite", "--data-dir", "DATA", "--expires-in", "7x"],
             status: 1, message: "expected a duration such as 7d"),
        Case(name: "an invite lifetime out of range", arguments: ["invite", "--data-dir", "DATA", "--expires-in", "90d"],
             status: 1, message: "an invite lives from 1m to 30d"),
        Case(name: "an unknown invite role", arguments: ["invite", "--data-dir", "DATA", "--role", "owner"],
             status: 1, message: "owner"),
        Case(name: "an unknown key in the configuration file", arguments: ["members", "--config", "CONFIG"],
             status: 1, message: "unknown key \"hots\""),
        Case(name: "a bad port in the environment", arguments: ["members", "--data-dir", "DATA"],
             environment: ["WORKOUTD_PORT": "seventy"], status: 1, message: "WORKOUTD_PORT must be a port number"),
    ]

    @Test("Bad input gets its exit code and a message naming the problem", arguments: cases)
    func badInput(_ testCase: Case) throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            if testCase.arguments.contains("DATA") { try createOwner(data) }
            try Data("not a directory".utf8).write(to: URL(fileURLWithPath: path + "/file"))
            try FileManager.default.createDirectory(atPath: path + "/empty", withIntermediateDirectories: true)
            try Data(#"{"hots": "0.0.0.0"}"#.utf8).write(to: URL(fileURLWithPath: path + "/config.json"))
            let replacements = ["DATA": data, "FILE": path + "/file", "EMPTY": path + "/empty", "CONFIG": path + "/config.json"]
            let arguments = testCase.arguments.map { replacements[$0] ?? $0 }
            let result = try WorkoutdProcess.run(arguments, input: testCase.input, environment: testCase.environment)
            #expect(result.status == testCase.status, "\(result)")
            #expect(result.error.contains(testCase.message), "\(result)")
            #expect(!result.error.contains("Fatal error"), "\(result)")
            #expect(!result.error.contains("Stack dump"), "\(result)")
            #expect(result.error.split(separator: "\n").count < 12, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: path + "/empty/data.mdb") || testCase.arguments.contains("EMPTY") == false)
        }
    }

    @Test("--help describes the settings and exit codes, and exits with 0")
    func help() throws {
        let result = try WorkoutdProcess.run(["--help"])
        #expect(result.status == 0, "\(result)")
        for text in ["create-owner", "invite", "members", "reset-password", "backup", "restore", "EXIT CODES", "WORKOUTD_CONFIG"] {
            #expect(result.output.contains(text), "\(text) missing from \(result)")
        }
    }
}
