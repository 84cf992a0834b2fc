import Dispatch
import Foundation
import Synchronization

/// Avahi's command-line tools (Debian's `avahi-utils`), for finding Workout servers on the
/// local network. There is no mDNS implementation here: where the tools are missing, the
/// commands say so and how to install them.
enum Avahi {
    /// What to tell someone without the tools.
    static let installHint = "install Debian's avahi-utils (sudo apt-get install avahi-utils), or give the server as HOST:PORT"

    /// The path of `tool` on `$PATH`, or `nil`.
    static func find(_ tool: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { "\($0)/\(tool)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The Workout servers on the local network: `avahi-browse --resolve --terminate
    /// --parsable _workout._tcp`, which answers from avahi-daemon's cache and what it hears
    /// within a moment.
    ///
    /// - Throws: ``CLIError`` (unavailable) when avahi-browse is not installed or fails (no
    ///   avahi-daemon running), naming what to do.
    static func browse(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> [DiscoveredServer] {
        guard let tool = find("avahi-browse", environment: environment) else {
            throw CLIError(.unavailable, "cannot look for servers: avahi-browse is not installed; \(installHint)")
        }
        let result = try run(tool, ["--resolve", "--terminate", "--parsable", "_workout._tcp"])
        guard result.status == 0 else {
            let reason = result.error.trimmingCharacters(in: .whitespacesAndNewlines)
            throw CLIError(.unavailable, "avahi-browse failed (\(reason.isEmpty ? "exit \(result.status)" : reason)); is avahi-daemon running? (systemctl status avahi-daemon)")
        }
        return DiscoveredServer.parse(avahiBrowseOutput: result.output)
    }

    /// The address of an mDNS host name (`nas.local`) by `avahi-resolve-host-name`, preferring
    /// IPv4; `nil` when the tool is missing or the name is not found.
    static func resolve(host: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let tool = find("avahi-resolve-host-name", environment: environment) else { return nil }
        for family in ["-4", "-6"] {
            guard let result = try? run(tool, [family, host]), result.status == 0 else { continue }
            // "nas.local\t192.168.1.10"
            if let address = result.output.split(whereSeparator: \.isNewline).first?
                .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first {
                return String(address)
            }
        }
        return nil
    }

    /// Runs a tool for at most 10 seconds and returns its status and output.
    private static func run(_ tool: String, _ arguments: [String]) throws(CLIError) -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CLIError(.unavailable, "cannot run \(tool): \(error.localizedDescription)")
        }
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
        // Read both pipes to their end (the tool closing them, or being stopped), then reap it.
        let errorData = Mutex(Data())
        let errorReader = DispatchWorkItem { errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() } }
        DispatchQueue.global().async(execute: errorReader)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorReader.wait()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
