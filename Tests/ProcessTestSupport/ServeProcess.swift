package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `workoutd serve` process on a free loopback port.
package final class ServeProcess: @unchecked Sendable {
    // Safe because: the process handle is used from one test thread at a time.
    /// The server process.
    package let process = Process()
    /// The port it listens on (127.0.0.1).
    package let port: Int
    /// Its standard output (after the first line, which named the port).
    package let output = Pipe()

    /// Starts `workoutd serve --port 0` on `dataDirectory` and waits (at most 30 s) for the line
    /// that names its address.
    ///
    /// - Parameters:
    ///   - dataDirectory: The data directory (a household with an owner, usually).
    ///   - transport: `--transport`: `plain` (loopback; what most process tests speak) or `tls`.
    ///   - extra: More arguments for `workoutd serve` (`--config FILE`).
    ///   - port: The port to listen on; 0 (the default) for a free one. A given port is how a
    ///     test restarts a server where its clients expect it.
    /// - Throws: ``ServeProcessError`` when the binary is missing or the server did not report
    ///   its address.
    package init(dataDirectory: String, transport: String = "plain", arguments extra: [String] = [], port requestedPort: Int = 0) throws {
        guard let binary = BuiltProduct.path(named: "workoutd", override: "WORKOUTD_BINARY") else {
            throw ServeProcessError(output: "the workoutd binary was not found next to the tests; set WORKOUTD_BINARY")
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--data-dir", dataDirectory, "--port", String(requestedPort), "--log-level", "warning"] + extra
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
            .merging(["WORKOUTD_TRANSPORT": transport]) { _, new in new }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line names the address: "workoutd 0.1.0: serving on 127.0.0.1:PORT".
        var line = Data()
        let deadline = Date().addingTimeInterval(30)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let portText = text.split(separator: "\n").first?.split(separator: ":").last, let port = Int(portText) else {
            process.terminate()
            throw ServeProcessError(output: text)
        }
        self.port = port
        self.banner = text
    }

    /// What the server printed first (its address line, and what came in the same read).
    package let banner: String

    /// Sends `signal` and waits (at most 30 s, then it is terminated) for the process to end.
    ///
    /// - Parameter signal: E.g. `SIGTERM` for a graceful stop, `SIGKILL` for a crash.
    /// - Returns: How it ended.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM) -> (reason: Process.TerminationReason, status: Int32) {
        // An ended process is not signalled again (its id may belong to another by now).
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}

/// `workoutd serve` did not say where it listens.
package struct ServeProcessError: Error, CustomStringConvertible {
    /// What it printed instead.
    package let output: String

    package var description: String { "workoutd serve did not report its address; it printed: \(output)" }
}
