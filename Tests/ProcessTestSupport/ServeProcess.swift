package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `workoutd serve` process on a free loopback port.
package final class ServeProcess: @unchecked Sendable {
    // Safe because: a test uses the process from one thread at a time.
    /// The server's process id.
    package let pid: pid_t
    /// How it ended, once that was seen.
    private var ending: Spawn.Ending?
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
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
            .merging(["WORKOUTD_TRANSPORT": transport]) { _, new in new }
        // Not Foundation's Process: its start crashes now and then on Linux (see Spawn).
        let null = try FileHandle(forUpdating: URL(fileURLWithPath: "/dev/null"))
        defer { try? null.close() }
        pid = try Spawn.start(
            binary, ["serve", "--data-dir", dataDirectory, "--port", String(requestedPort), "--log-level", "warning"] + extra,
            environment: environment, directory: nil,
            input: null.fileDescriptor, output: output.fileHandleForWriting.fileDescriptor, error: null.fileDescriptor)
        // The child holds the write end now: the pipe ends when the server does.
        try output.fileHandleForWriting.close()
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
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid)
            throw ServeProcessError(output: text)
        }
        self.port = port
        self.banner = text
    }

    /// What the server printed first (its address line, and what came in the same read).
    package let banner: String

    /// Sends `signal` and waits (at most 30 s, then it is killed) for the process to end.
    ///
    /// - Parameter signal: E.g. `SIGTERM` for a graceful stop, `SIGKILL` for a crash.
    /// - Returns: How it ended.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM) -> (reason: Process.TerminationReason, status: Int32) {
        // An ended process is not signalled again (its id may belong to another by now).
        if isRunning {
            kill(pid, signal)
            // Its end, as waitpid reports it on another thread: no polling.
            let reaped = Reaped()
            DispatchQueue.global().async { [pid] in reaped.set(Spawn.wait(pid)) }
            if reaped.ended.wait(timeout: .now() + 30) == .timedOut {
                kill(pid, SIGKILL)
                reaped.ended.wait()
            }
            ending = reaped.ending
        }
        switch ending! {
        case .exited(let code): return (.exit, code)
        case .signaled(let number): return (.uncaughtSignal, number)
        }
    }

    /// Whether the server has not ended yet (it is reaped, and its ending kept, once it has).
    package var isRunning: Bool {
        guard ending == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        return false
    }
}

/// A child's end, handed from the thread that waited for it.
private final class Reaped: @unchecked Sendable {
    // Safe because: `ending` is written once before `ended` is signalled, and read after.
    let ended = DispatchSemaphore(value: 0)
    private(set) var ending: Spawn.Ending?

    func set(_ ending: Spawn.Ending) {
        self.ending = ending
        ended.signal()
    }
}

/// `workoutd serve` did not say where it listens.
package struct ServeProcessError: Error, CustomStringConvertible {
    /// What it printed instead.
    package let output: String

    package var description: String { "workoutd serve did not report its address; it printed: \(output)" }
}
