import Dispatch
import Foundation
import Testing

/// The built `workoutd` executable, run as a real process.
enum WorkoutdProcess {
    /// What a finished run printed and returned.
    struct Result: CustomStringConvertible {
        /// The exit code (or the signal number if it was killed).
        var status: Int32
        /// Standard output.
        var output: String
        /// Standard error.
        var error: String

        var description: String { "exit \(status)\n--- stdout\n\(output)--- stderr\n\(error)" }
    }

    /// The path of the `workoutd` binary, or `nil` if it cannot be found.
    ///
    /// Looked for, in order: `$WORKOUTD_BINARY`; next to the test bundle (SwiftPM puts every
    /// product of a configuration in one directory: walk up from `CommandLine.arguments[0]` and
    /// the bundles' paths, which on macOS are inside `X.xctest/Contents/MacOS`); in the package's
    /// `.build/<configuration>` and `.build/<triple>/<configuration>` directories, found from
    /// this file's path.
    static let binary: String? = locate()

    private static func locate() -> String? {
        let files = FileManager.default
        func executable(in directory: URL) -> String? {
            let candidate = directory.appendingPathComponent("workoutd").path
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                  files.isExecutableFile(atPath: candidate)
            else { return nil }
            return candidate
        }
        if let explicit = ProcessInfo.processInfo.environment["WORKOUTD_BINARY"], files.isExecutableFile(atPath: explicit) {
            return explicit
        }
        var starts: [URL] = []
        if let first = CommandLine.arguments.first, first.contains("/") {
            starts.append(URL(fileURLWithPath: first).standardizedFileURL)
        }
        starts.append(Bundle.main.bundleURL)
        if let path = Bundle.main.executablePath { starts.append(URL(fileURLWithPath: path)) }
        starts += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                if let found = executable(in: directory) { return found }
                directory.deleteLastPathComponent()
            }
        }
        // #filePath is <package>/Tests/WorkoutdTests/WorkoutdProcess.swift.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = package.appendingPathComponent(".build")
        var directories = [build.appendingPathComponent("debug"), build.appendingPathComponent("release")]
        for entry in (try? files.contentsOfDirectory(atPath: build.path)) ?? [] where entry.contains("-") {
            directories.append(build.appendingPathComponent(entry).appendingPathComponent("debug"))
            directories.append(build.appendingPathComponent(entry).appendingPathComponent("release"))
        }
        return directories.lazy.compactMap(executable(in:)).first
    }

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
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("workoutd-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        let inputFile = scratch.appendingPathComponent("stdin")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        try Data((input ?? "").utf8).write(to: inputFile)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
        variables.merge(environment) { _, new in new }
        process.environment = variables
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        let standardInput = input == nil ? FileHandle.nullDevice : try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try output.close()
        try error.close()
        if input != nil { try standardInput.close() }
        #expect(process.terminationReason == .exit, "workoutd \(arguments) was killed (signal \(process.terminationStatus))")
        return Result(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
