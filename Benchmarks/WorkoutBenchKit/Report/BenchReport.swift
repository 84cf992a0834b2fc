package import Foundation

/// The result of one run, as `--json` writes it: one JSON object, snake_case keys, every key
/// always present (`null` where a figure was not measured, e.g. the server's without Stats).
package struct BenchReport: Sendable, Equatable {
    /// The scenario's name.
    package var scenario: String
    /// `"embedded"` (a workoutd child on a fresh store) or the server's `host:port`.
    package var server: String
    /// Load connections.
    package var connections: Int
    /// Calls in flight per connection (1 for the scripted scenarios).
    package var pipeline: Int
    /// The open-loop target rate, calls/s; `nil` for closed loop.
    package var rate: Double?
    /// Idle connections held during the run.
    package var idleConnections: Int
    /// Members in the store, and meals preloaded per member.
    package var users: Int
    /// See ``users``.
    package var preloadPerUser: Int
    /// Seconds preloading took (embedded server only).
    package var preloadSeconds: Double?
    /// Seconds of warm-up.
    package var warmupSeconds: Double
    /// The measured window, seconds.
    package var durationSeconds: Double
    /// Calls answered in the window (failed ones included).
    package var ops: UInt64
    /// ops / duration.
    package var opsPerSecond: Double
    /// Latency percentiles and extremes, µs.
    package var p50Microseconds: Double
    /// See ``p50Microseconds``.
    package var p90Microseconds: Double
    /// See ``p50Microseconds``.
    package var p99Microseconds: Double
    /// See ``p50Microseconds``.
    package var p999Microseconds: Double
    /// See ``p50Microseconds``.
    package var maxMicroseconds: Double
    /// See ``p50Microseconds``.
    package var meanMicroseconds: Double
    /// Failed calls by status name.
    package var errors: [String: UInt64]
    /// The first message of each failed status.
    package var errorMessages: [String: String]
    /// Scripts completed (`household` openings, `connect` connections); `nil` for the others.
    package var cycles: UInt64?
    /// The server's figures for the window (from Admin.Stats), or `nil`.
    package var commits: UInt64?
    /// See ``commits``.
    package var opsPerCommit: Double?
    /// See ``commits``.
    package var serverCPUMicrosecondsPerOp: Double?
    /// See ``commits``.
    package var rssAnonBytes: UInt64?
    /// See ``commits``.
    package var rssBytes: UInt64?
    /// See ``commits``.
    package var serverCalls: UInt64?
    /// Calls the bench counted in the window before the server's figures for its start
    /// arrived (the server may have counted them before the window), when Stats was asked.
    package var opsBeforeServerStats: UInt64?
    /// The bench's own CPU per call, µs.
    package var clientCPUMicrosecondsPerOp: Double
    /// Meals found on the preloaded day checked before the run, or `nil`.
    package var probeMeals: Int?
    /// Whether responses could be compressed.
    package var compression: Bool
    /// A soak's minutes (`--soak`), else `nil`.
    package var soak: [SoakMinute]?
    /// Whether the soak stayed flat (its first and last minutes compared), else `nil`.
    package var soakSummary: SoakSummary?

    /// The report of a run.
    package init(
        scenario: String, server: String, connections: Int, pipeline: Int, rate: Double?, idleConnections: Int,
        users: Int, preloadPerUser: Int, preloadSeconds: Double?, warmupSeconds: Double, compression: Bool, outcome: LoadOutcome
    ) {
        self.scenario = scenario
        self.server = server
        self.connections = connections
        self.pipeline = pipeline
        self.rate = rate
        self.idleConnections = idleConnections
        self.users = users
        self.preloadPerUser = preloadPerUser
        self.preloadSeconds = preloadSeconds
        self.warmupSeconds = warmupSeconds
        self.compression = compression
        durationSeconds = outcome.windowSeconds
        ops = outcome.ops
        opsPerSecond = outcome.windowSeconds > 0 ? Double(outcome.ops) / outcome.windowSeconds : 0
        p50Microseconds = outcome.latency.microseconds(atPercentile: 50)
        p90Microseconds = outcome.latency.microseconds(atPercentile: 90)
        p99Microseconds = outcome.latency.microseconds(atPercentile: 99)
        p999Microseconds = outcome.latency.microseconds(atPercentile: 99.9)
        maxMicroseconds = outcome.latency.maxMicroseconds
        meanMicroseconds = outcome.latency.meanMicroseconds
        errors = outcome.errors.byName
        errorMessages = outcome.errors.messagesByName
        cycles = Scenario(rawValue: scenario)?.isRequestLoop == false ? outcome.cycles : nil
        if let figures = outcome.serverFigures {
            commits = figures.commits
            opsPerCommit = figures.opsPerCommit
            serverCPUMicrosecondsPerOp = figures.cpuMicrosecondsPerCall
            rssAnonBytes = figures.rssAnonBytes
            rssBytes = figures.rssBytes
            serverCalls = figures.calls
            opsBeforeServerStats = outcome.opsBeforeStatsBefore
        }
        clientCPUMicrosecondsPerOp = outcome.ops > 0 ? Double(outcome.clientCPUMicroseconds) / Double(outcome.ops) : 0
        probeMeals = outcome.probedMeals
        soak = outcome.soakMinutes
        soakSummary = outcome.soakMinutes.flatMap { SoakSummary(minutes: $0) }
    }

    /// Failed calls in all.
    package var errorCount: UInt64 { errors.values.reduce(0, +) }
}

extension BenchReport: Codable {
    enum CodingKeys: String, CodingKey {
        case scenario, server, connections, pipeline, rate, compression, users, cycles, ops, errors, commits
        case idleConnections = "idle_connections"
        case preloadPerUser = "preload_per_user"
        case preloadSeconds = "preload_s"
        case warmupSeconds = "warmup_s"
        case durationSeconds = "duration_s"
        case opsPerSecond = "ops_per_s"
        case p50Microseconds = "p50_us"
        case p90Microseconds = "p90_us"
        case p99Microseconds = "p99_us"
        case p999Microseconds = "p999_us"
        case maxMicroseconds = "max_us"
        case meanMicroseconds = "mean_us"
        case errorMessages = "error_messages"
        case opsPerCommit = "ops_per_commit"
        case serverCPUMicrosecondsPerOp = "server_cpu_us_per_op"
        case rssAnonBytes = "rss_anon_bytes"
        case rssBytes = "rss_bytes"
        case serverCalls = "server_calls"
        case opsBeforeServerStats = "ops_before_server_stats"
        case clientCPUMicrosecondsPerOp = "client_cpu_us_per_op"
        case probeMeals = "probe_meals"
        case soak
        case soakSummary = "soak_summary"
    }

    /// Encodes every key, writing `null` for a figure not measured.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(server, forKey: .server)
        try container.encode(connections, forKey: .connections)
        try container.encode(pipeline, forKey: .pipeline)
        try container.encode(rate, forKey: .rate)
        try container.encode(compression, forKey: .compression)
        try container.encode(idleConnections, forKey: .idleConnections)
        try container.encode(users, forKey: .users)
        try container.encode(preloadPerUser, forKey: .preloadPerUser)
        try container.encode(preloadSeconds.map(Self.rounded), forKey: .preloadSeconds)
        try container.encode(Self.rounded(warmupSeconds), forKey: .warmupSeconds)
        try container.encode(Self.rounded(durationSeconds), forKey: .durationSeconds)
        try container.encode(ops, forKey: .ops)
        try container.encode(Self.rounded(opsPerSecond), forKey: .opsPerSecond)
        try container.encode(Self.rounded(p50Microseconds), forKey: .p50Microseconds)
        try container.encode(Self.rounded(p90Microseconds), forKey: .p90Microseconds)
        try container.encode(Self.rounded(p99Microseconds), forKey: .p99Microseconds)
        try container.encode(Self.rounded(p999Microseconds), forKey: .p999Microseconds)
        try container.encode(Self.rounded(maxMicroseconds), forKey: .maxMicroseconds)
        try container.encode(Self.rounded(meanMicroseconds), forKey: .meanMicroseconds)
        try container.encode(errors, forKey: .errors)
        try container.encode(errorMessages, forKey: .errorMessages)
        try container.encode(cycles, forKey: .cycles)
        try container.encode(commits, forKey: .commits)
        try container.encode(opsPerCommit.map(Self.rounded), forKey: .opsPerCommit)
        try container.encode(serverCPUMicrosecondsPerOp.map(Self.rounded), forKey: .serverCPUMicrosecondsPerOp)
        try container.encode(rssAnonBytes, forKey: .rssAnonBytes)
        try container.encode(rssBytes, forKey: .rssBytes)
        try container.encode(serverCalls, forKey: .serverCalls)
        try container.encode(opsBeforeServerStats, forKey: .opsBeforeServerStats)
        try container.encode(Self.rounded(clientCPUMicrosecondsPerOp), forKey: .clientCPUMicrosecondsPerOp)
        try container.encode(probeMeals, forKey: .probeMeals)
        try container.encode(soak, forKey: .soak)
        try container.encode(soakSummary, forKey: .soakSummary)
    }

    /// Two decimals are plenty for every figure (and keep the JSON readable).
    static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    /// The report as one JSON object with sorted keys, followed by a newline.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}
