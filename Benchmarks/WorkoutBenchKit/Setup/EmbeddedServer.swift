#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A `workoutd serve` child process on a data directory, listening on a free loopback port:
/// the server a run measures by default. Its limits come from a configuration file the bench
/// writes (`limits.max_connections`, `limits.max_connections_per_address`), raised to hold every
/// connection of the run; its log (warnings and worse) goes to a file beside the data.
///
/// The child inherits the bench's raised `RLIMIT_NOFILE`. ``stop()`` must be called: SIGTERM
/// (graceful shutdown, the store flushed), then SIGKILL if it has not exited within 15 s.
package final class EmbeddedServer {
    /// The child.
    private let process: Process
    /// Its address.
    package let address: ServerAddress
    /// Where its standard error goes.
    package let logFile: String
    private var stopped = false

    /// The configuration file's contents: the connection limits for `connections` connections
    /// in all, never below workoutd's defaults (1,024 in all, 256 per address).
    ///
    /// - Parameter importBatchesPerMinute: `limits.import_batches_per_minute`, when given.
    package static func configuration(connections: Int, importBatchesPerMinute: Int? = nil) -> String {
        let total = max(1_024, connections + 64)
        let perAddress = max(256, connections + 64)
        let pace = importBatchesPerMinute.map { ",\n    \"import_batches_per_minute\": \($0)" } ?? ""
        return """
            {
              "limits": {
                "max_connections": \(total),
                "max_connections_per_address": \(perAddress)\(pace)
              }
            }

            """
    }

    /// Starts `workoutd serve` on `dataDirectory` and waits (at most `timeout` seconds) for it
    /// to say where it listens.
    ///
    /// - Parameters:
    ///   - workoutd: The executable.
    ///   - dataDirectory: The data directory (with the preloaded store).
    ///   - workDirectory: Where the configuration file and the log go.
    ///   - connections: How many connections the run will hold (limits are raised to fit).
    ///   - timeout: Seconds to wait for the listening line.
    /// - Throws: ``BenchFailure`` when it cannot start, exits, or says nothing in time (with
    ///   the end of its log).
    ///   - importBatchesPerMinute: The server's import pace (`limits.import_batches_per_minute`), when given.
    package init(
        workoutd: String, dataDirectory: String, workDirectory: String, connections: Int, tls: Bool = false,
        importBatchesPerMinute: Int? = nil, timeout: Double = 30
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: workoutd) else {
            throw BenchFailure("no workoutd executable at \(workoutd); build it (swift build -c release --product workoutd) or pass --workoutd PATH")
        }
        let configFile = (workDirectory as NSString).appendingPathComponent("workoutd.json")
        logFile = (workDirectory as NSString).appendingPathComponent("workoutd.log")
        try Data(Self.configuration(connections: connections, importBatchesPerMinute: importBatchesPerMinute).utf8).write(to: URL(fileURLWithPath: configFile))
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: workoutd)
        process.arguments = [
            "serve", "--data-dir", dataDirectory, "--config", configFile, "--host", "127.0.0.1", "--port", "0", "--transport", tls ? "tls" : "plain",
            "--log-level", "warning",
        ]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchFailure("cannot start \(workoutd): \(error)")
        }
        self.process = process
        let line = Self.readLine(from: output.fileHandleForReading.fileDescriptor, timeout: timeout)
        // "workoutd 0.1.0: serving on 127.0.0.1:PORT"
        guard let line, line.contains("serving on"), let portText = line.split(separator: ":").last,
              let port = Int(portText.trimmingCharacters(in: .whitespaces))
        else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            throw BenchFailure("""
                workoutd did not start (\(line.map { "it said: \($0)" } ?? "no listening line within \(Int(timeout)) s")); its log:
                \(log.split(separator: "\n").suffix(10).joined(separator: "\n"))
                """)
        }
        address = ServerAddress(host: "127.0.0.1", port: port)
        // Keep draining its standard output (a few lines), so it never blocks writing.
        output.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
        stopChildOnInterrupt()
    }

    /// A Ctrl-C (or SIGTERM, SIGHUP) of the bench stops the child too, instead of leaving a
    /// `workoutd` serving a temporary directory behind: the handler sends the child SIGTERM (it
    /// shuts down gracefully by itself) and the bench exits with 128 + the signal.
    private func stopChildOnInterrupt() {
        childToStopOnInterrupt = process.processIdentifier
        for interrupt in [SIGINT, SIGTERM, SIGHUP] {
            signal(interrupt, stopChildAndExit)
        }
    }

    deinit {
        assert(stopped, "EmbeddedServer was not stopped")
    }

    /// The child's process id.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Reads one line from `descriptor`, waiting at most `timeout` seconds (poll(2)).
    private static func readLine(from descriptor: Int32, timeout: Double) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !bytes.contains(UInt8(ascii: "\n")) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 1, Int32(min(remaining, 1) * 1_000))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { return nil }
            if ready == 0 { continue }
            var byte: UInt8 = 0
            let count = posixRead(descriptor, &byte, 1)
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// Stops the child: SIGTERM, then SIGKILL after `grace` seconds. Call once.
    ///
    /// - Returns: Whether it exited by itself (after SIGTERM).
    @discardableResult
    package func stop(grace: Double = 15) -> Bool {
        precondition(!stopped, "EmbeddedServer stopped twice")
        stopped = true
        for interrupt in [SIGINT, SIGTERM, SIGHUP] { signal(interrupt, SIG_DFL) }
        childToStopOnInterrupt = 0
        if !process.isRunning { return true }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        var graceful = true
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            graceful = false
        }
        process.waitUntilExit()
        return graceful
    }
}

/// The child an interrupted bench stops (0: none). Written before the handler is installed
/// and after it is removed; read only by the handler.
nonisolated(unsafe) private var childToStopOnInterrupt: pid_t = 0

/// The signal handler: only async-signal-safe calls (kill, _exit).
private func stopChildAndExit(_ interrupt: Int32) {
    if childToStopOnInterrupt > 0 { kill(childToStopOnInterrupt, SIGTERM) }
    _exit(128 + interrupt)
}

