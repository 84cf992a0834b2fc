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
}
