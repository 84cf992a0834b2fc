/// What the load driver does: the scenario, the load's shape, the server, the accounts.
package struct LoadSettings: Sendable {
    /// The scenario.
    package var scenario: Scenario
    /// The server.
    package var address: ServerAddress
    /// Load connections.
    package var connections: Int
    /// Calls in flight per load connection (request scenarios).
    package var pipeline: Int
    /// Seconds of load before the measured window.
    package var warmupSeconds: Double
    /// Seconds measured.
    package var durationSeconds: Double
    /// Open-loop rate over all load connections, calls per second; `nil` for closed loop.
    package var rate: Double?
    /// Connections held open and idle during the run.
    package var idleConnections: Int
    /// The accounts and data.
    package var plan: DataPlan
    /// Whether to ask Admin.Stats (as the owner) before and after the measured window.
    package var askServerStats: Bool
    /// Whether the connections let the server compress responses.
    package var acceptsCompression: Bool
    /// How the `connect` scenario authenticates.
    package var connectAuthentication: ConnectAuthentication
    /// Whether to check, before the load, that a preloaded day holds the planned meals.
    package var probePreloadedDay: Bool
    /// The most seconds connecting and logging in may take before the run gives up.
    package var setupTimeoutSeconds: Double
    /// TLS to the server (`--tls`), or plain TCP. The bench does not pin the server's key: it
    /// measures the cost of TLS against its own server, not trust.
    package var tls = false
    /// A soak's length in minutes (the measured window, sampled each minute), or `nil`.
    package var soakMinutes: Int?
    /// Streams.Watch calls held open for the whole run, each on its own connection.
    package var watchStreams = 0
    /// `household`: every this many rounds of a connection begins with Auth.Login (and ends
    /// with Auth.Logout) instead of Auth.Resume; 0 for never.
    package var loginEveryRounds = 0
    /// `household`: reads a random preloaded day instead of today (a soak's own writes pile up
    /// in today).
    package var readsPreloadedDays = false

    /// Settings; see each property.
    package init(
        scenario: Scenario, address: ServerAddress, connections: Int, pipeline: Int, warmupSeconds: Double,
        durationSeconds: Double, rate: Double?, idleConnections: Int, plan: DataPlan, askServerStats: Bool,
        acceptsCompression: Bool, connectAuthentication: ConnectAuthentication, probePreloadedDay: Bool,
        setupTimeoutSeconds: Double
    ) {
        self.scenario = scenario
        self.address = address
        self.connections = connections
        self.pipeline = pipeline
        self.warmupSeconds = warmupSeconds
        self.durationSeconds = durationSeconds
        self.rate = rate
        self.idleConnections = idleConnections
        self.plan = plan
        self.askServerStats = askServerStats
        self.acceptsCompression = acceptsCompression
        self.connectAuthentication = connectAuthentication
        self.probePreloadedDay = probePreloadedDay
        self.setupTimeoutSeconds = setupTimeoutSeconds
    }

    /// The members the load connections log in as: connection `i` uses member `i % members`.
    package var membersUsed: Int { min(connections, plan.members) }

    /// Calls in a `household` round that resumes: Resume, three reads, three writes.
    package static let householdCallsPerRound = 7

    /// The settings of a soak of `minutes` minutes: the household mix, sampled each minute, with
    /// a full login every ``soakLoginEveryRounds`` rounds, a random preloaded day read, and one
    /// Watch stream per ``soakMembersPerWatch`` members.
    package mutating func makeSoak(minutes: Int) {
        soakMinutes = minutes
        durationSeconds = Double(minutes) * 60
        loginEveryRounds = Self.soakLoginEveryRounds
        readsPreloadedDays = plan.days > 0
        watchStreams = Self.soakWatchStreams(membersUsed: membersUsed)
    }

    /// A soak's Watch streams for `membersUsed` members: one per ``soakMembersPerWatch``, at least one.
    package static func soakWatchStreams(membersUsed: Int) -> Int {
        max(1, (membersUsed + soakMembersPerWatch - 1) / soakMembersPerWatch)
    }

    /// A soak's rounds that log in fully: one in this many.
    package static let soakLoginEveryRounds = 10
    /// A soak's Watch streams: one per this many members.
    package static let soakMembersPerWatch = 8
}
