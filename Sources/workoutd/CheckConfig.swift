import ArgumentParser
import Foundation
import Storage
import WorkoutCore
import WorkoutServer

/// `workoutd check-config`: resolves the settings as `serve` would (flags, environment,
/// configuration file, defaults), prints every effective value, and exits 1 with a message
/// naming the key when one is wrong. Changes nothing.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check the configuration and print the effective settings; changes nothing.",
        discussion: "Exit code 0 when the settings are valid, 1 with a message naming the key when not. Keys, defaults and bounds:\n\n"
            + ConfigurationKey.table())

    @OptionGroup var options: DataDirectoryOptions

    @Option(help: ArgumentHelp("As `serve --host`.", valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("As `serve --port`.", valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("As `serve --transport`.", valueName: "transport"))
    var transport: ServeTransport?

    func run() throws {
        let settings = try options.settings(host: host, port: port, transport: transport)
        let server = Serve.serverConfiguration(settings)
        // The check `serve` makes before it listens, so what passes here starts there.
        if settings.transport != .tls {
            do {
                try PlainTCPNotAllowed.check(
                    SocketAddress.resolve(host: settings.host, port: settings.port), tls: false,
                    allowsPlainTCP: settings.transport == .plainNetwork)
            } catch {
                throw CommandFailure(.badInput, "transport: \(error) (host \(settings.host), transport \(settings.transport.rawValue))")
            }
        }
        var rows: [[String]] = [["configuration file", settings.configFile ?? "(none: flags, WORKOUTD_* variables and defaults)"]]
        func seconds(_ duration: Duration) -> String {
            let (whole, fraction) = duration.components
            return fraction == 0 ? "\(whole)" : String(format: "%.3f", Double(whole) + Double(fraction) / 1e18)
        }
        let limits = settings.limits
        let values: [(String, String, Bool)] = [
            ("host", settings.host, true),
            ("port", "\(settings.port)", true),
            ("transport", settings.transport.rawValue, settings.transportSetting != nil),
            ("data_dir", absolute(settings.dataDirectory), true),
            ("backup_dir", absolute(settings.backupDirectory), settings.backupDirectorySetting != nil),
            ("backup_keep_daily", "\(settings.backupKeepDaily)", true),
            ("backup_keep_weekly", "\(settings.backupKeepWeekly)", true),
            ("limits.max_connections", "\(server.maxConnections)", limits.maxConnections != nil),
            ("limits.max_connections_per_address", "\(server.maxConnectionsPerSource)", limits.maxConnectionsPerAddress != nil),
            ("limits.max_frame_bytes", "\(server.maxFrameSize)", limits.maxFrameBytes != nil),
            ("limits.max_calls_in_flight", "\(server.maxCallsInFlight)", limits.maxCallsInFlight != nil),
            ("limits.max_buffered_output_bytes", "\(server.maxBufferedOutput)", limits.maxBufferedOutputBytes != nil),
            ("limits.handshake_timeout_seconds", seconds(server.handshakeTimeout), limits.handshakeTimeoutSeconds != nil),
            ("limits.idle_timeout_seconds", seconds(server.idleTimeout), limits.idleTimeoutSeconds != nil),
            ("limits.max_incomplete_frame_bytes", "\(server.maxIncompleteFrameBytes)", limits.maxIncompleteFrameBytes != nil),
            ("limits.frame_timeout_seconds", seconds(server.frameTimeout), limits.frameTimeoutSeconds != nil),
            ("limits.sessionless_idle_seconds", seconds(server.sessionlessIdleTimeout), limits.sessionlessIdleSeconds != nil),
            ("limits.max_stream_seconds", seconds(server.maxStreamDuration), limits.maxStreamSeconds != nil),
            ("limits.shutdown_grace_seconds", seconds(server.shutdownGracePeriod), limits.shutdownGraceSeconds != nil),
            ("limits.import_batches_per_minute", "\(Serve.householdConfiguration(settings).importBatchesPerMinute)", limits.importBatchesPerMinute != nil),
        ]
        for (key, value, set) in values {
            rows.append([key, set ? value : "\(value) (default)"])
        }
        rows.append(["store", storeState(settings.dataDirectory)])
        print(Display.table(rows))
        print("The configuration is valid.")
    }

    private func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// What the data directory holds, in a few words; never fails the check.
    private func storeState(_ directory: String) -> String {
        guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("data.mdb")) else {
            return "none yet (created on the first start or by create-owner)"
        }
        if let owner = DataDirectoryOwner.foreignOwner(of: directory) {
            // Opening it as root could leave a root-owned lock file the server cannot open.
            return "not looked at: it belongs to \(owner) (run check-config as \(owner) to see it)"
        }
        do {
            guard let inspection = try Store.inspect(directory: directory, schema: HouseholdSchema.schema) else { return "none yet" }
            let version = inspection.schemaVersion
            let known = HouseholdSchema.version
            if version == known { return "schema version \(version), up to date" }
            if version < known { return "schema version \(version); migrated to \(known) on the next start (after an archive)" }
            return "schema version \(version), NEWER than this workoutd knows (\(known)): serve will refuse it"
        } catch {
            return "cannot be read: \(error)"
        }
    }
}
