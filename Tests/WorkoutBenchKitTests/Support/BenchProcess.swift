import Dispatch
import Foundation
import Testing

/// The built `workout-bench` and `workoutd` executables, run as processes.
enum BenchProcess {
    /// What a finished run printed and returned.
    struct Result: CustomStringConvertible {
        /// The exit status.
        var status: Int32
        /// Standard output.
        var output: String
        /// Standard error.
        var error: String
        /// Seconds it ran.
        var seconds: Double

        var description: String { "exit \(status) after \(seconds) s\n--- stdout\n\(output)--- stderr\n\(error)" }
    }

    /// The directory holding the built products: the one with `workout-bench` beside the tests
    /// (SwiftPM builds every product of a configuration into one directory), else the package's
    /// `.build/debug`.
    static let productsDirectory: URL? = {
        let files = FileManager.default
        func holdsProducts(_ directory: URL) -> Bool {
            files.isExecutableFile(atPath: directory.appendingPathComponent("workout-bench").path)
                && files.isExecutableFile(atPath: directory.appendingPathComponent("workoutd").path)
        }
        var starts: [URL] = []
        if let first = CommandLine.arguments.first, first.contains("/") { starts.append(URL(fileURLWithPath: first)) }
        starts += Bundle.allBundles.map(\.bundleURL)
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                if holdsProducts(directory) { return directory }
                directory.deleteLastPathComponent()
            }
        }
        // #filePath is <package>/Tests/WorkoutBenchKitTests/Support/BenchProcess.swift.
        var package = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { package.deleteLastPathComponent() }
        let debug = package.appendingPathComponent(".build/debug")
        return holdsProducts(debug) ? debug : nil
    }()

    /// The path of a built product.
    static func product(_ name: String) throws -> String {
        let directory = try #require(productsDirectory, "the built workout-bench and workoutd were not found next to the tests")
        return directory.appendingPathComponent(name).path
    }

    /// Runs `workout-bench` with `arguments`, killing it after `timeout` seconds (then the test fails).
    static func run(_ arguments: [String], timeout: Double = 60) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bench-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try product("workout-bench"))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try output.close()
        try error.close()
        #expect(process.terminationReason == .exit, "workout-bench \(arguments) was killed after \(timeout) s")
        return Result(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self),
            seconds: Date().timeIntervalSince(started))
    }
}
