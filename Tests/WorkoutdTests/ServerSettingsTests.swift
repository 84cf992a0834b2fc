import Foundation
import Testing
@testable import workoutd

/// Resolving ``ServerSettings`` from flags, environment, configuration file and defaults.
@Suite("Server settings: flags over environment over file over defaults")
struct ServerSettingsTests {
    /// Files for `readFile`, by path.
    static func reader(_ files: [String: String]) -> (String) throws -> Data {
        { path in
            guard let text = files[path] else { throw CocoaError(.fileReadNoSuchFile) }
            return Data(text.utf8)
        }
    }

    static let fullFile = """
        {"host": "0.0.0.0", "port": 9000, "data_dir": "/srv/workout",
         "limits": {"max_connections": 100, "idle_timeout_seconds": 30.5, "shutdown_grace_seconds": 5,
                    "import_batches_per_minute": 30}}
        """

    @Test("With nothing given, the defaults")
    func defaults() throws {
        let settings = try ServerSettings.resolve(flags: .init(), environment: [:], readFile: Self.reader([:]))
        #expect(settings.host == "127.0.0.1")
        #expect(settings.port == 7420)
        #expect(settings.dataDirectory == "./workout-data")
        #expect(settings.limits == ServerSettings.Limits())
        #expect(settings.configFile == nil)
        #expect(settings.transport == .tls && settings.transportSetting == nil)
    }

    @Test("The file's values replace the defaults, limits included")
    func file() throws {
        let settings = try ServerSettings.resolve(
            flags: .init(configFile: "/etc/workoutd.json"), environment: [:], readFile: Self.reader(["/etc/workoutd.json": Self.fullFile]))
        #expect(settings.host == "0.0.0.0")
        #expect(settings.port == 9000)
        #expect(settings.dataDirectory == "/srv/workout")
        #expect(settings.limits.maxConnections == 100)
        #expect(settings.limits.idleTimeoutSeconds == 30.5)
        #expect(settings.limits.shutdownGraceSeconds == 5)
        #expect(settings.limits.importBatchesPerMinute == 30)
        #expect(Serve.householdConfiguration(settings).importBatchesPerMinute == 30)
        #expect(settings.limits.maxFrameBytes == nil)
        #expect(settings.configFile == "/etc/workoutd.json")
    }

    @Test("The environment wins over the file, and names the file when --config does not")
    func environment() throws {
        let environment = [
            "WORKOUTD_CONFIG": "/etc/workoutd.json", "WORKOUTD_HOST": "::1", "WORKOUTD_PORT": "7500", "WORKOUTD_DATA_DIR": "/tmp/w",
        ]
        let settings = try ServerSettings.resolve(
            flags: .init(), environment: environment, readFile: Self.reader(["/etc/workoutd.json": Self.fullFile]))
        #expect(settings.host == "::1")
        #expect(settings.port == 7500)
        #expect(settings.dataDirectory == "/tmp/w")
        #expect(settings.limits.maxConnections == 100)
    }

    @Test("Flags win over the environment and the file, field by field")
    func flags() throws {
        let files = Self.reader(["/etc/workoutd.json": Self.fullFile, "/other.json": #"{"port": 1234}"#])
        let environment = ["WORKOUTD_CONFIG": "/etc/workoutd.json", "WORKOUTD_HOST": "::1", "WORKOUTD_DATA_DIR": "/tmp/w"]
        let settings = try ServerSettings.resolve(
            flags: .init(port: 0, dataDirectory: "here", configFile: "/other.json"), environment: environment, readFile: files)
        #expect(settings.host == "::1")  // environment: no --host
        #expect(settings.port == 0)  // flag over the file named by --config
        #expect(settings.dataDirectory == "here")  // flag over environment
        #expect(settings.configFile == "/other.json")  // --config over WORKOUTD_CONFIG
        #expect(settings.limits == ServerSettings.Limits())
        let mixed = try ServerSettings.resolve(flags: .init(host: "10.0.0.2"), environment: environment, readFile: files)
        #expect(mixed.host == "10.0.0.2")
        #expect(mixed.port == 9000)  // from the file: neither flag nor variable
        #expect(mixed.dataDirectory == "/tmp/w")
    }

    @Test("transport: the flag over WORKOUTD_TRANSPORT over the file's key over tls")
    func transport() throws {
        let files = Self.reader(["/c.json": #"{"transport": "plain-network"}"#])
        let file = try ServerSettings.resolve(flags: .init(configFile: "/c.json"), environment: [:], readFile: files)
        #expect(file.transport == .plainNetwork)
        let variable = try ServerSettings.resolve(
            flags: .init(configFile: "/c.json"), environment: ["WORKOUTD_TRANSPORT": "plain"], readFile: files)
        #expect(variable.transport == .plain)
        let flag = try ServerSettings.resolve(
            flags: .init(configFile: "/c.json", transport: .tls), environment: ["WORKOUTD_TRANSPORT": "plain"], readFile: files)
        #expect(flag.transport == .tls && flag.transportSetting == .tls)
        let empty = try ServerSettings.resolve(
            flags: .init(), environment: ["WORKOUTD_TRANSPORT": ""], readFile: files)
        #expect(empty.transport == .tls && empty.transportSetting == nil)
    }

    @Test("An empty variable counts as unset")
    func emptyVariables() throws {
        let settings = try ServerSettings.resolve(
            flags: .init(), environment: ["WORKOUTD_PORT": "", "WORKOUTD_HOST": "", "WORKOUTD_CONFIG": ""], readFile: Self.reader([:]))
        #expect(settings == ServerSettings())
    }

    @Test("A relative data_dir in the file is relative to the file's directory")
    func relativeDataDirectory() throws {
        let settings = try ServerSettings.resolve(
            flags: .init(configFile: "/etc/workout/workoutd.json"), environment: [:],
            readFile: Self.reader(["/etc/workout/workoutd.json": #"{"data_dir": "data"}"#]))
        #expect(settings.dataDirectory == "/etc/workout/data")
    }

    @Test("Bad values and unknown keys are errors naming the source", arguments: [
        (#"{"hots": "x"}"#, [String: String](), "unknown key \"hots\" in /c.json"),
        (#"{"limits": {"max_conections": 3}}"#, [:], "unknown key \"limits.max_conections\""),
        (#"{"port": "7420"}"#, [:], "\"port\" in /c.json must be a whole number"),
        (#"{"port": true}"#, [:], "\"port\" in /c.json must be a whole number of at least 0 (got true)"),
        (#"{"port": 70000}"#, [:], "\"port\" in /c.json must be a port number from 0 to 65535 (got 70000)"),
        (#"{"port": 74.5}"#, [:], "\"port\" in /c.json must be a whole number"),
        (#"{"host": "my host"}"#, [:], "\"host\" in /c.json must be an IP address or host name"),
        (#"{"host": 5}"#, [:], "\"host\" in /c.json must be a string"),
        (#"{"data_dir": ""}"#, [:], "\"data_dir\" in /c.json must be a non-empty path"),
        (#"{"limits": {"max_connections": 0}}"#, [:], "\"limits.max_connections\" in /c.json must be a whole number from 1 to 65536 (got 0)"),
        (#"{"limits": {"max_connections": 100000}}"#, [:], "\"limits.max_connections\" in /c.json must be a whole number from 1 to 65536 (got 100000)"),
        (#"{"limits": {"max_frame_bytes": 1024}}"#, [:], "\"limits.max_frame_bytes\" in /c.json must be a whole number from 65536 to 67108864 (got 1024)"),
        (#"{"limits": {"shutdown_grace_seconds": 61}}"#, [:], "\"limits.shutdown_grace_seconds\" in /c.json must be a number of seconds above 0, at most 60 s (got 61)"),
        (#"{"backup_keep_daily": 0}"#, [:], "\"backup_keep_daily\" in /c.json must be a whole number from 1 to 366 (got 0)"),
        (#"{"backup_keep_weekly": -1}"#, [:], "\"backup_keep_weekly\" in /c.json must be a whole number from 0 to 520 (got -1)"),
        (#"{"backup_dir": 3}"#, [:], "\"backup_dir\" in /c.json must be a string"),
        (#"{"transport": "ssl"}"#, [:], "\"transport\" in /c.json must be tls, plain or plain-network (got \"ssl\")"),
        (#"{"transport": true}"#, [:], "\"transport\" in /c.json must be tls, plain or plain-network (got true)"),
        (#"{"transport": "TLS"}"#, [:], "\"transport\" in /c.json must be tls, plain or plain-network (got \"TLS\")"),
        ("{}", ["WORKOUTD_TRANSPORT": "none"], "WORKOUTD_TRANSPORT must be tls, plain or plain-network (got \"none\")"),
        (#"{"limits": {"idle_timeout_seconds": "5"}}"#, [:], "\"limits.idle_timeout_seconds\" in /c.json must be a number of seconds"),
        (#"{"limits": []}"#, [:], "\"limits\" in /c.json must be a JSON object"),
        (#"["host"]"#, [:], "must hold a JSON object"),
        (#"{"host": "#, [:], "/c.json is not valid JSON"),
        ("{}", ["WORKOUTD_PORT": "http"], "WORKOUTD_PORT must be a port number from 0 to 65535 (got \"http\")"),
        ("{}", ["WORKOUTD_PORT": "-1"], "WORKOUTD_PORT must be a port number from 0 to 65535 (got -1)"),
        ("{}", ["WORKOUTD_HOST": "a b"], "WORKOUTD_HOST must be an IP address"),
    ])
    func errors(file: String, environment: [String: String], message: String) throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerSettings.resolve(flags: .init(configFile: "/c.json"), environment: environment, readFile: Self.reader(["/c.json": file]))
        }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("A bad flag, or a configuration file that cannot be read, is an error naming it")
    func flagErrors() throws {
        let port = #expect(throws: ConfigurationError.self) {
            try ServerSettings.resolve(flags: .init(port: 65536), environment: [:], readFile: Self.reader([:]))
        }
        #expect(port?.message == "--port must be a port number from 0 to 65535 (got 65536)")
        let missing = #expect(throws: ConfigurationError.self) {
            try ServerSettings.resolve(flags: .init(), environment: ["WORKOUTD_CONFIG": "/nope.json"], readFile: Self.reader([:]))
        }
        #expect(missing?.message.hasPrefix("cannot read the configuration file /nope.json") == true, "\(String(describing: missing))")
    }
}
