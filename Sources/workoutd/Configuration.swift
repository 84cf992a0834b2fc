import Foundation

/// Where `workoutd` serves and keeps its data, resolved from four sources, the first that
/// gives a value winning, field by field:
///
/// 1. command-line flags (`--host`, `--port`, `--data-dir`, `--transport`);
/// 2. environment variables `WORKOUTD_HOST`, `WORKOUTD_PORT`, `WORKOUTD_DATA_DIR`,
///    `WORKOUTD_TRANSPORT` (an empty variable counts as unset);
/// 3. the configuration file named by `--config FILE`, else by `WORKOUTD_CONFIG`;
/// 4. the defaults: host `127.0.0.1`, port `7420`, data directory `./workout-data`,
///    transport `tls`.
///
/// The configuration file is one JSON object; every key is optional, an unknown key, a value
/// of the wrong type or out of its bound is an error naming the file and the key
/// (``ConfigurationKey/all`` lists every key with its default and bound):
///
/// ```json
/// {
///   "host": "0.0.0.0",
///   "port": 7420,
///   "transport": "tls",
///   "data_dir": "/var/lib/workout",
///   "backup_dir": "/var/lib/workout/backups",
///   "backup_keep_daily": 7,
///   "backup_keep_weekly": 8,
///   "limits": {
///     "max_connections": 256,
///     "max_connections_per_address": 32,
///     "max_frame_bytes": 4194304,
///     "max_calls_in_flight": 64,
///     "max_buffered_output_bytes": 8388608,
///     "handshake_timeout_seconds": 10,
///     "idle_timeout_seconds": 300,
///     "max_incomplete_frame_bytes": 16777216,
///     "frame_timeout_seconds": 30,
///     "sessionless_idle_seconds": 15,
///     "max_stream_seconds": 3600,
///     "shutdown_grace_seconds": 10,
///     "import_batches_per_minute": 120
///   }
/// }
/// ```
///
/// A relative `data_dir` in the file is taken relative to the file's own directory; a relative
/// `--data-dir` or `WORKOUTD_DATA_DIR` relative to the current directory. `port` 0 asks the
/// system for a free port. `limits` left out (or any one of them) means the server's default.
struct ServerSettings: Sendable, Equatable {
    /// The address the server listens on when nothing says otherwise (loopback only).
    static let defaultHost = "127.0.0.1"
    /// The port the server listens on when nothing says otherwise.
    static let defaultPort = 7420
    /// The data directory when nothing says otherwise, relative to the current directory.
    static let defaultDataDirectory = "./workout-data"

    /// The environment variable naming the configuration file.
    static let configVariable = "WORKOUTD_CONFIG"
    /// The environment variable giving the data directory.
    static let dataDirectoryVariable = "WORKOUTD_DATA_DIR"
    /// The environment variable giving the host.
    static let hostVariable = "WORKOUTD_HOST"
    /// The environment variable giving the port.
    static let portVariable = "WORKOUTD_PORT"
    /// The environment variable giving the transport.
    static let transportVariable = "WORKOUTD_TRANSPORT"

    /// The address to listen on: an IPv4 or IPv6 literal or a host name.
    var host: String = ServerSettings.defaultHost
    /// The TCP port, 0...65535 (0: any free port).
    var port: Int = ServerSettings.defaultPort
    /// The data directory holding the store.
    var dataDirectory: String = ServerSettings.defaultDataDirectory
    /// The transport as a flag, variable or the file gives it; `nil`: ``transport``'s default.
    var transportSetting: ServeTransport?
    /// The server's limits; `nil` fields mean the server's defaults.
    var limits = Limits()
    /// The configuration file that was read, if any.
    var configFile: String?
    /// Where scheduled archives go, as the file gives it; `nil`: ``backupDirectory``'s default.
    var backupDirectorySetting: String?
    /// Days whose newest archive retention keeps.
    var backupKeepDaily = 7
    /// ISO weeks whose newest archive retention keeps.
    var backupKeepWeekly = 8

    /// How the protocol is carried: `transport`, else TLS.
    var transport: ServeTransport { transportSetting ?? ServeTransport.defaultValue }

    /// Where scheduled archives go: `backup_dir`, else `backups` in the data directory.
    var backupDirectory: String {
        backupDirectorySetting ?? (dataDirectory as NSString).appendingPathComponent("backups")
    }

    /// Limits the server enforces, as the configuration file's `limits` object gives them.
    /// Each is `nil` unless the file sets it, and the server then uses its own default.
    struct Limits: Sendable, Equatable {
        /// `max_connections`: open connections at once.
        var maxConnections: Int?
        /// `max_connections_per_address`: open connections from one source address.
        var maxConnectionsPerAddress: Int?
        /// `max_frame_bytes`: the largest frame accepted.
        var maxFrameBytes: Int?
        /// `max_calls_in_flight`: calls in flight on one connection.
        var maxCallsInFlight: Int?
        /// `max_buffered_output_bytes`: output buffered for one slow reader before it is dropped.
        var maxBufferedOutputBytes: Int?
        /// `handshake_timeout_seconds`: how long a new connection has to finish the handshake.
        var handshakeTimeoutSeconds: Double?
        /// `idle_timeout_seconds`: how long a connection may stay silent.
        var idleTimeoutSeconds: Double?
        /// `max_incomplete_frame_bytes`: memory for frames still arriving, across all connections.
        var maxIncompleteFrameBytes: Int?
        /// `frame_timeout_seconds`: how long one frame may take to arrive whole.
        var frameTimeoutSeconds: Double?
        /// `sessionless_idle_seconds`: how long a connection without a session may go without calls.
        var sessionlessIdleSeconds: Double?
        /// `max_stream_seconds`: the longest a server stream may run.
        var maxStreamSeconds: Double?
        /// `shutdown_grace_seconds`: how long in-flight calls get to finish on SIGTERM.
        var shutdownGraceSeconds: Double?
        /// `import_batches_per_minute`: import batches one member may send per minute.
        var importBatchesPerMinute: Int?
    }

    /// What the command line gave; `nil` for a flag not given.
    struct Flags: Sendable, Equatable {
        /// `--host`.
        var host: String?
        /// `--port`.
        var port: Int?
        /// `--data-dir`.
        var dataDirectory: String?
        /// `--config`.
        var configFile: String?
        /// `--transport`.
        var transport: ServeTransport?

        /// Flags as parsed.
        init(
            host: String? = nil, port: Int? = nil, dataDirectory: String? = nil, configFile: String? = nil,
            transport: ServeTransport? = nil
        ) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.configFile = configFile
            self.transport = transport
        }
    }

    /// Resolves the settings from flags, environment, configuration file and defaults.
    ///
    /// - Parameters:
    ///   - flags: what the command line gave.
    ///   - environment: the process's environment (`ProcessInfo.processInfo.environment`).
    ///   - readFile: reads a file's bytes; tests pass their own.
    /// - Returns: the settings, every value checked.
    /// - Throws: ``ConfigurationError`` naming the flag, variable or file key at fault: an
    ///   unreadable file, malformed JSON, an unknown key, a value of the wrong type or range.
    static func resolve(
        flags: Flags,
        environment: [String: String],
        readFile: (String) throws -> Data = { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    ) throws(ConfigurationError) -> ServerSettings {
        func variable(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        var settings = ServerSettings()
        if let path = flags.configFile ?? variable(configVariable) {
            let file = try ConfigurationFile.load(path, readFile: readFile)
            settings.configFile = path
            if let host = file.host { settings.host = try checkHost(host, source: "\"host\" in \(path)") }
            if let port = file.port { settings.port = try checkPort(port, source: "\"port\" in \(path)") }
            if let transport = file.transport { settings.transportSetting = transport }
            func relativeToFile(_ directory: String) -> String {
                directory.hasPrefix("/")
                    ? directory : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(directory)
            }
            if let directory = file.dataDirectory {
                settings.dataDirectory = relativeToFile(try checkDataDirectory(directory, source: "\"data_dir\" in \(path)"))
            }
            if let directory = file.backupDirectory {
                settings.backupDirectorySetting = relativeToFile(try checkDataDirectory(directory, source: "\"backup_dir\" in \(path)"))
            }
            if let days = file.backupKeepDaily { settings.backupKeepDaily = days }
            if let weeks = file.backupKeepWeekly { settings.backupKeepWeekly = weeks }
            settings.limits = file.limits
        }
        if let host = variable(hostVariable) { settings.host = try checkHost(host, source: hostVariable) }
        if let text = variable(portVariable) {
            guard let port = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError("\(portVariable) must be a port number from 0 to 65535 (got \"\(text)\")")
            }
            settings.port = try checkPort(port, source: portVariable)
        }
        if let directory = variable(dataDirectoryVariable) {
            settings.dataDirectory = try checkDataDirectory(directory, source: dataDirectoryVariable)
        }
        if let name = variable(transportVariable) {
            guard let transport = ServeTransport(rawValue: name) else {
                throw ConfigurationError(
                    "\(transportVariable) must be \(ConfigurationKey.named("transport").bound.description) (got \"\(name)\")")
            }
            settings.transportSetting = transport
        }
        if let host = flags.host { settings.host = try checkHost(host, source: "--host") }
        if let port = flags.port { settings.port = try checkPort(port, source: "--port") }
        if let directory = flags.dataDirectory { settings.dataDirectory = try checkDataDirectory(directory, source: "--data-dir") }
        if let transport = flags.transport { settings.transportSetting = transport }
        return settings
    }

    private static func checkHost(_ host: String, source: String) throws(ConfigurationError) -> String {
        guard (1...253).contains(host.utf8.count),
              !host.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else {
            throw ConfigurationError("\(source) must be an IP address or host name of 1 to 253 bytes without spaces (got \"\(host)\")")
        }
        return host
    }

    private static func checkPort(_ port: Int, source: String) throws(ConfigurationError) -> Int {
        guard (0...65535).contains(port) else {
            throw ConfigurationError("\(source) must be a port number from 0 to 65535 (got \(port))")
        }
        return port
    }

    private static func checkDataDirectory(_ directory: String, source: String) throws(ConfigurationError) -> String {
        guard !directory.isEmpty, !directory.utf8.contains(0) else {
            throw ConfigurationError("\(source) must be a non-empty path")
        }
        return directory
    }
}

/// A configuration problem: a message naming the flag, variable or file key at fault.
struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, and where.
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}

/// The configuration file's contents, checked: see ``ServerSettings``.
struct ConfigurationFile: Equatable {
    var host: String?
    var port: Int?
    var transport: ServeTransport?
    var dataDirectory: String?
    var backupDirectory: String?
    var backupKeepDaily: Int?
    var backupKeepWeekly: Int?
    var limits = ServerSettings.Limits()

    /// The keys a configuration file may have at its top level.
    static var keys: [String] { ConfigurationKey.topLevel }
    /// The keys its `limits` object may have.
    static var limitKeys: [String] { ConfigurationKey.limitKeys }

    /// Reads and checks the file at `path`.
    static func load(_ path: String, readFile: (String) throws -> Data) throws(ConfigurationError) -> ConfigurationFile {
        let data: Data
        do {
            data = try readFile(path)
        } catch {
            let reason = (error as NSError).localizedDescription
            throw ConfigurationError("cannot read the configuration file \(path): \(reason)")
        }
        return try parse(data, path: path)
    }

    /// Parses and checks a configuration file's bytes; `path` names it in errors.
    static func parse(_ data: Data, path: String) throws(ConfigurationError) -> ConfigurationFile {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw ConfigurationError("the configuration file \(path) is not valid JSON: \((error as NSError).localizedDescription)")
        }
        guard let top = object as? [String: Any] else {
            throw ConfigurationError("the configuration file \(path) must hold a JSON object ({ \"host\": …, \"port\": … })")
        }
        try checkKeys(top, known: keys, path: path, within: nil)
        var file = ConfigurationFile()
        file.host = try string(top["host"], key: "host", path: path)
        file.port = try integer(top["port"], key: "port", path: path, minimum: 0)
        file.transport = try choice(top["transport"], key: "transport", path: path).flatMap(ServeTransport.init(rawValue:))
        file.dataDirectory = try string(top["data_dir"], key: "data_dir", path: path)
        file.backupDirectory = try string(top["backup_dir"], key: "backup_dir", path: path)
        file.backupKeepDaily = try bounded(top["backup_keep_daily"], key: "backup_keep_daily", path: path)
        file.backupKeepWeekly = try bounded(top["backup_keep_weekly"], key: "backup_keep_weekly", path: path)
        if let value = top["limits"], !(value is NSNull) {
            guard let limits = value as? [String: Any] else {
                throw ConfigurationError("\"limits\" in \(path) must be a JSON object")
            }
            try checkKeys(limits, known: limitKeys, path: path, within: "limits")
            func count(_ key: String) throws(ConfigurationError) -> Int? {
                try bounded(limits[key], key: "limits." + key, path: path)
            }
            func seconds(_ key: String) throws(ConfigurationError) -> Double? {
                try boundedSeconds(limits[key], key: "limits." + key, path: path)
            }
            file.limits.maxConnections = try count("max_connections")
            file.limits.maxConnectionsPerAddress = try count("max_connections_per_address")
            file.limits.maxFrameBytes = try count("max_frame_bytes")
            file.limits.maxCallsInFlight = try count("max_calls_in_flight")
            file.limits.maxBufferedOutputBytes = try count("max_buffered_output_bytes")
            file.limits.handshakeTimeoutSeconds = try seconds("handshake_timeout_seconds")
            file.limits.idleTimeoutSeconds = try seconds("idle_timeout_seconds")
            file.limits.maxIncompleteFrameBytes = try count("max_incomplete_frame_bytes")
            file.limits.frameTimeoutSeconds = try seconds("frame_timeout_seconds")
            file.limits.sessionlessIdleSeconds = try seconds("sessionless_idle_seconds")
            file.limits.maxStreamSeconds = try seconds("max_stream_seconds")
            file.limits.shutdownGraceSeconds = try seconds("shutdown_grace_seconds")
            file.limits.importBatchesPerMinute = try count("import_batches_per_minute")
        }
        return file
    }

    private static func checkKeys(_ object: [String: Any], known: [String], path: String, within: String?) throws(ConfigurationError) {
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let name = within.map { "\($0).\(first)" } ?? first
        throw ConfigurationError("unknown key \"\(name)\" in \(path) (known keys\(within.map { " of \"\($0)\"" } ?? ""): \(known.joined(separator: ", ")))")
    }

    /// Whether a JSON value is `true` or `false`. JSONSerialization hands those over as
    /// `NSNumber`s that also cast to `Int` (and `1` casts to `Bool`), so look at the number's
    /// type: JSON numbers come back as `i`, `q` or `d`, booleans as `c` (`B` on some platforms).
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        let type = String(cString: number.objCType)
        return type == "c" || type == "B"
    }

    private static func string(_ value: Any?, key: String, path: String) throws(ConfigurationError) -> String? {
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String else {
            throw ConfigurationError("\"\(key)\" in \(path) must be a string")
        }
        return text
    }

    private static func integer(_ value: Any?, key: String, path: String, minimum: Int) throws(ConfigurationError) -> Int? {
        guard let value, !(value is NSNull) else { return nil }
        guard !isBoolean(value), !(value is String), let number = value as? NSNumber,
              let integer = Int(exactly: number.doubleValue), integer >= minimum
        else {
            throw ConfigurationError("\"\(key)\" in \(path) must be a whole number of at least \(minimum) (got \(describe(value)))")
        }
        return integer
    }

    /// A whole number within the bound ``ConfigurationKey`` gives `key`.
    private static func bounded(_ value: Any?, key: String, path: String) throws(ConfigurationError) -> Int? {
        guard case .count(let range) = ConfigurationKey.named(key).bound else { preconditionFailure("\(key) is not a count") }
        guard let value, !(value is NSNull) else { return nil }
        guard !isBoolean(value), !(value is String), let number = value as? NSNumber,
              let integer = Int(exactly: number.doubleValue), range.contains(integer)
        else {
            throw ConfigurationError(
                "\"\(key)\" in \(path) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(describe(value)))")
        }
        return integer
    }

    /// One of the words ``ConfigurationKey`` allows `key`.
    private static func choice(_ value: Any?, key: String, path: String) throws(ConfigurationError) -> String? {
        guard case .choice(let words) = ConfigurationKey.named(key).bound else { preconditionFailure("\(key) is not a choice") }
        guard let value, !(value is NSNull) else { return nil }
        guard let word = value as? String, words.contains(word) else {
            throw ConfigurationError(
                "\"\(key)\" in \(path) must be \(ConfigurationKey.named(key).bound.description) (got \(describe(value)))")
        }
        return word
    }

    /// A number of seconds within the bound ``ConfigurationKey`` gives `key`.
    private static func boundedSeconds(_ value: Any?, key: String, path: String) throws(ConfigurationError) -> Double? {
        guard case .seconds(let range) = ConfigurationKey.named(key).bound else { preconditionFailure("\(key) is not seconds") }
        guard let value, !(value is NSNull) else { return nil }
        guard !isBoolean(value), !(value is String), let number = value as? NSNumber,
              number.doubleValue > range.lowerBound || (range.lowerBound > 0 && number.doubleValue == range.lowerBound),
              number.doubleValue <= range.upperBound
        else {
            throw ConfigurationError(
                "\"\(key)\" in \(path) must be a number of seconds \(ConfigurationKey.named(key).bound.description) (got \(describe(value)))")
        }
        return number.doubleValue
    }

    private static func describe(_ value: Any) -> String {
        if isBoolean(value) { return (value as? NSNumber)?.boolValue == true ? "true" : "false" }
        if let text = value as? String { return "\"\(text)\"" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "\(value)"
    }
}
