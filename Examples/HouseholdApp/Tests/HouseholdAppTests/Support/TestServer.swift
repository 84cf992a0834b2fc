#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import WorkoutClient

/// A real `workoutd serve` process on this machine, with a household whose owner is
/// ``Owner``, in a temporary directory of its own.
///
/// ``stop()`` ends the process and keeps its data, to start it again (as after a reboot);
/// ``shutDown()`` also deletes the data. Call `shutDown()` in a `defer` right after making
/// the server, so that no process outlives a failing test.
final class TestServer: Sendable {
    /// The household's data directory (`--data-dir`).
    let dataDirectory: String
    /// The address it listens on (`--host`): `127.0.0.1`, or `0.0.0.0` for every interface.
    let listenHost: String
    /// `--transport`: `tls`, `plain` (loopback only) or `plain-network`.
    let transport: String
    private let directory: TemporaryDirectory
    private let logPath: String
    private let state = Mutex(State())

    private struct State {
        var process: Process?
        var port = 0
        var fingerprint = ""
    }

    /// Makes a household with its owner; starts nothing.
    ///
    /// - Throws: ``TestFailure`` when `workoutd` is missing or `create-owner` fails.
    init(_ name: String, host: String = "127.0.0.1", transport: String = "tls") async throws {
        directory = try TemporaryDirectory(name)
        dataDirectory = directory.file("data")
        logPath = directory.file("workoutd.log")
        listenHost = host
        self.transport = transport
        do {
            _ = try await Workoutd.succeeding(
                ["create-owner", "--data-dir", dataDirectory, "--email", Owner.email, "--first-name", "Owner",
                 "--time-zone", "UTC", "--password-stdin"],
                input: Owner.password)
        } catch {
            directory.remove()
            throw error
        }
    }

    /// The port it listens on (0 before the first start).
    var port: Int { state.withLock { $0.port } }

    /// The fingerprint of its TLS key, as `workoutd serve` printed it at the last start.
    var fingerprint: String { state.withLock { $0.fingerprint } }

    /// Where a client on this machine reaches it.
    var address: ServerAddress {
        ServerAddress(host: listenHost == "0.0.0.0" ? "127.0.0.1" : listenHost, port: port)
    }

    /// Starts `workoutd serve` and waits, at most 15 s, until it says where it serves.
    ///
    /// - Parameter requestedPort: The port to listen on; by default the port of the last start
    ///   (where clients expect it), or a free one the first time.
    /// - Throws: ``TestFailure`` with its log when it exits or does not say where it serves in time.
    func start(port requestedPort: Int? = nil) async throws {
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw TestFailure("could not create \(logPath)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = try Workoutd.executable()
        process.arguments = [
            "serve", "--data-dir", dataDirectory, "--host", listenHost, "--port", String(requestedPort ?? port),
            "--transport", transport, "--log-level", "warning",
        ]
        process.environment = Workoutd.environment
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try log.close()
        state.withLock { $0.process = process }

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n")
            // "workoutd 0.1.0: serving on 127.0.0.1:PORT" follows "TLS key fingerprint: …".
            if let serving = lines.first(where: { $0.contains("serving on") }),
               let portText = serving.split(separator: " ").last?.split(separator: ":").last, let port = Int(portText) {
                let fingerprint = lines.last { $0.hasPrefix("TLS key fingerprint:") }
                    .map { $0.dropFirst("TLS key fingerprint:".count).trimmingCharacters(in: .whitespaces) }
                state.withLock {
                    $0.port = port
                    $0.fingerprint = fingerprint ?? ""
                }
                return
            }
            if !process.isRunning { throw TestFailure("workoutd serve exited: \(text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        stop()
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        throw TestFailure("workoutd serve did not say where it serves within 15 s: \(text)")
    }

    /// Ends the process (SIGTERM, then SIGKILL after 10 s) and waits for it; keeps the data.
    func stop() {
        let running = state.withLock { state in
            defer { state.process = nil }
            return state.process
        }
        guard let process = running, process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Ends the process and deletes the household's directory.
    func shutDown() {
        stop()
        directory.remove()
    }

    /// Makes an invite with `workoutd invite`: the code alone, and the whole text an admin
    /// hands out, `CODE@FINGERPRINT`.
    ///
    /// - Throws: ``TestFailure`` when the command fails or prints no invite.
    func invite() async throws -> (code: String, withKey: String) {
        let output = try await Workoutd.succeeding(["invite", "--data-dir", dataDirectory])
        let lines = output.split(separator: "\n")
        func lastWord(after prefix: String) -> String? {
            lines.first { $0.hasPrefix(prefix) }?.split(separator: " ").last.map(String.init)
        }
        guard let code = lastWord(after: "Invite code:"), let withKey = lastWord(after: "With key:") else {
            throw TestFailure("workoutd invite printed no invite: \(output)")
        }
        return (code, withKey)
    }

    /// Replaces the server's key with `workoutd rotate-key` (the old key vouches for the new
    /// one); stop the server first.
    ///
    /// - Throws: ``TestFailure`` when the command fails.
    func rotateKey() async throws {
        _ = try await Workoutd.succeeding(["rotate-key", "--data-dir", dataDirectory])
    }

    /// The fingerprint of the key in the data directory, as `workoutd fingerprint` prints it.
    ///
    /// - Throws: ``TestFailure`` when the command fails.
    func fingerprintOnDisk() async throws -> String {
        try await Workoutd.succeeding(["fingerprint", "--data-dir", dataDirectory])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The household's owner, whom ``TestServer`` makes.
enum Owner {
    static let email = "owner@example.com"
    static let password = "correct horse battery"
}
