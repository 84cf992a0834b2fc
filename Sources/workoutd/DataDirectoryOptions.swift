import ArgumentParser
import Foundation
import WorkoutCore

/// The options every subcommand takes: where the data directory is, and which configuration
/// file to read (see ``ServerSettings`` for the precedence of flags, environment and file).
struct DataDirectoryOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The data directory (default: $\(ServerSettings.dataDirectoryVariable), else data_dir in the configuration file, else \(ServerSettings.defaultDataDirectory)).",
            valueName: "dir"))
    var dataDirectory: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "A JSON configuration file (default: $\(ServerSettings.configVariable)); see `workoutd --help` for its keys.",
            valueName: "file"))
    var configFile: String?

    /// The settings these options, the environment and the configuration file give, with
    /// `serve`'s own flags on top.
    ///
    /// - Parameters:
    ///   - host: `--host`, if the command has it and it was given.
    ///   - port: `--port`, likewise.
    ///   - transport: `--transport`, likewise.
    ///   - environment: the environment to read `WORKOUTD_*` from.
    /// - Throws: ``CommandFailure`` (bad input) for a bad flag, variable or file.
    func settings(
        host: String? = nil, port: Int? = nil, transport: ServeTransport? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ServerSettings {
        do throws(ConfigurationError) {
            return try ServerSettings.resolve(
                flags: ServerSettings.Flags(
                    host: host, port: port, dataDirectory: dataDirectory, configFile: configFile, transport: transport),
                environment: environment)
        } catch {
            throw CommandFailure(.badInput, error.message)
        }
    }

    /// The data directory to work on.
    func resolvedDataDirectory() throws -> String {
        try settings().dataDirectory
    }

    /// The data directory, checked: a path that exists must be a directory.
    ///
    /// - Returns: the directory and whether it holds a store (a `data.mdb`).
    /// - Throws: ``CommandFailure`` (store problem) when the path is not a directory.
    func inspectDataDirectory() throws -> (directory: String, holdsStore: Bool) {
        let directory = try resolvedDataDirectory()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return (directory, false) }
        guard isDirectory.boolValue else {
            throw CommandFailure(.store, "\(directory) exists and is not a directory")
        }
        return (directory, FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("data.mdb")))
    }

    /// Opens the household store of the data directory, runs `body`, and closes the store.
    ///
    /// - Parameters:
    ///   - mustExist: refuse (rather than create) a data directory without a store.
    ///   - body: gets the store and the data directory's path.
    func withHouseholdStore<R>(mustExist: Bool = true, _ body: (HouseholdStore, String) throws -> R) throws -> R {
        let (directory, holdsStore) = try inspectDataDirectory()
        if mustExist && !holdsStore {
            throw CommandFailure(
                .store,
                "there is no Workout store in \(directory); create one with `\(HowToRun.workoutd) create-owner --data-dir \(directory)`, or pass --data-dir")
        }
        try DataDirectoryOwner.check(directory)
        if let upgrade = try StoreUpgrade.prepare(dataDirectory: directory, backupDirectory: try settings().backupDirectory) {
            StandardError.print("workoutd: \(StoreUpgrade.describe(upgrade))")
        }
        let store = try HouseholdStore(directory: directory)
        defer { store.close() }
        return try body(store, directory)
    }
}
