package import ArgumentParser
import Foundation

extension Scenario: ExpressibleByArgument {}
extension ConnectAuthentication: ExpressibleByArgument {}

/// `workout-bench`: load-tests a Workout server with one scenario and reports throughput,
/// latency percentiles, errors and the server's own figures (Benchmarks/README.md).
package struct WorkoutBenchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "workout-bench",
        abstract: "Load-test a Workout server: throughput, latency percentiles, errors, server CPU and memory.",
        discussion: """
            By default starts its own workoutd (found next to this executable, or --workoutd) on a fresh \
            temporary store that it preloads directly (owner, --users members, --preload meals each, 10 a \
            day, and a workout a day), measures, stops it and removes the store. With --server it measures \
            a running server instead, logging in with --member-email/--password (and --admin-email for \
            Admin.Stats). A progress line goes to standard error each second, the report to standard \
            output, and with --json one JSON object to a file.

            Scenarios: \(Scenario.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")).
            """)

    @Option(help: ArgumentHelp("What to measure (see the scenarios above).", valueName: "name"))
    package var scenario: Scenario = .mealsDay

    @Option(help: ArgumentHelp("Measure the server running at host:port instead of starting one.", valueName: "host:port"))
    package var server: String?

    @Option(help: ArgumentHelp("The workoutd executable to start (default: the one next to workout-bench).", valueName: "path"))
    package var workoutd: String?

    @Option(help: ArgumentHelp("Members in the household.", valueName: "count"))
    package var users = 100

    @Option(help: ArgumentHelp("Meals preloaded per member (with a workout per day besides).", valueName: "count"))
    package var preload = 3_650

    @Option(name: .customLong("per-day"), help: ArgumentHelp("Meals per day in the preload (what a day query returns).", valueName: "count"))
    package var mealsPerDay = 10

    @Option(help: ArgumentHelp("Load connections (each logged in as a member, round robin).", valueName: "count"))
    package var connections = 64

    @Option(help: ArgumentHelp("Calls in flight per connection (request scenarios).", valueName: "depth"))
    package var pipeline = 1

    @Option(help: ArgumentHelp("Seconds measured.", valueName: "seconds"))
    package var duration = 10.0

    @Option(help: ArgumentHelp("Seconds of load before measuring.", valueName: "seconds"))
    package var warmup = 2.0

    @Option(help: ArgumentHelp("Open loop: calls per second over all connections, latency measured from each call's intended send time.", valueName: "calls/s"))
    package var rate: Double?

    @Option(name: .customLong("idle-connections"), help: ArgumentHelp("Extra connections held open, logged in and idle, during the run.", valueName: "count"))
    package var idleConnections = 0

    @Option(help: ArgumentHelp("Write the report as one JSON object to this file.", valueName: "file"))
    package var json: String?

    @Option(name: .customLong("member-email"), help: ArgumentHelp("The members' emails; {n} is the member's number from 0.", valueName: "template"))
    package var memberEmail = DataPlan.defaultMemberEmailTemplate

    @Option(name: .customLong("admin-email"), help: ArgumentHelp("The owner's or an admin's email, for Admin.Stats.", valueName: "email"))
    package var adminEmail = DataPlan.defaultOwnerEmail

    @Option(help: ArgumentHelp("Every account's password.", valueName: "password"))
    package var password = DataPlan.defaultPassword

    @Flag(help: "Speak TLS to the server (the embedded one then serves TLS; its key is pinned on the first handshake, as a device pins it).")
    var tls = false

    @Flag(name: .customLong("no-server-stats"), help: "Do not log in as the admin nor ask Admin.Stats (no server figures).")
    package var noServerStats = false

    @Flag(inversion: .prefixedNo, help: "Let the server compress responses of 1 KiB or more (a LAN client would).")
    package var compression = false

    @Option(name: .customLong("connect-auth"), help: ArgumentHelp("How the connect scenario authenticates: login or resume.", valueName: "how"))
    package var connectAuthentication = ConnectAuthentication.login

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Preload into (or, if it holds a store, reuse) this data directory and keep it.", valueName: "dir"))
    package var dataDirectory: String?

    @Flag(name: .customLong("preload-only"), help: "Only preload --data-dir (then serve it with workoutd and run with --server).")
    package var preloadOnly = false

    @Option(name: .customLong("setup-timeout"), help: ArgumentHelp("Seconds connecting and logging in may take.", valueName: "seconds"))
    package var setupTimeout = 120.0

    @Option(help: ArgumentHelp(
        "Soak: run the household mix for this many minutes (1-1440; --duration is ignored), with full logins, Watch streams, and the server's memory, descriptors, store size and the p99 sampled each minute.",
        valueName: "minutes"))
    package var soak: Int?

    @Flag(help: "No progress lines.")
    package var quiet = false

    package init() {}

    package func validate() throws {
        func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition { throw ValidationError(message()) }
        }
        try require((1...100_000).contains(users), "--users must be from 1 to 100000 (got \(users))")
        try require((0...1_000_000).contains(preload), "--preload must be from 0 to 1000000 (got \(preload))")
        try require((1...100).contains(mealsPerDay), "--per-day must be from 1 to 100 (got \(mealsPerDay))")
        try require(preload / mealsPerDay <= 3_650, "--preload / --per-day must span at most 3650 days (got \(preload / mealsPerDay))")
        try require((1...10_000).contains(connections), "--connections must be from 1 to 10000 (got \(connections))")
        try require((1...1_024).contains(pipeline), "--pipeline must be from 1 to 1024 (got \(pipeline))")
        try require(duration > 0 && duration <= 3_600, "--duration must be above 0 and at most 3600 seconds (got \(duration))")
        try require(warmup >= 0 && warmup <= 600, "--warmup must be from 0 to 600 seconds (got \(warmup))")
        try require((0...100_000).contains(idleConnections), "--idle-connections must be from 0 to 100000 (got \(idleConnections))")
        try require(setupTimeout > 0, "--setup-timeout must be above 0 (got \(setupTimeout))")
        if let rate {
            try require(rate > 0 && rate.isFinite, "--rate must be above 0 (got \(rate))")
            try require(
                scenario.isRequestLoop || scenario == .household,
                "--rate applies to the request scenarios (log-weight, log-workout, meals-day, history) and household, not \(scenario.rawValue)")
            try require(rate / Double(connections) <= 1_000_000, "--rate is above a million calls per second per connection")
        }
        if !scenario.isRequestLoop {
            try require(pipeline == 1, "--pipeline applies to the request scenarios; \(scenario.rawValue) runs its own script (one call, or one step, at a time)")
        }
        if let soak {
            try require((1...1_440).contains(soak), "--soak must be from 1 to 1440 minutes (got \(soak))")
            try require(scenario == .household, "--soak runs the household mix: pass --scenario household")
            try require(!noServerStats, "--soak samples the server's figures each minute; it cannot be combined with --no-server-stats")
        }
        try require(users == 1 || memberEmail.contains("{n}"), "--member-email must contain {n} (the member's number) when there is more than one member")
        if let server {
            try require(ServerAddress(parsing: server) != nil, "--server must be host:port, e.g. 127.0.0.1:7420 (got \"\(server)\")")
            try require(workoutd == nil, "--workoutd starts a server; it cannot be combined with --server")
            try require(dataDirectory == nil && !preloadOnly, "--data-dir and --preload-only prepare a store for an embedded or later server, not for --server")
        }
        if preloadOnly {
            try require(dataDirectory != nil, "--preload-only needs --data-dir (where to keep the store)")
        }
    }

    package func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let run = BenchRun(command: self) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let report = try run.execute()
        guard let report else { return }
        print(ReportTable.render(report), terminator: "")
        if report.ops == 0 {
            throw BenchFailure("no call was answered in the measured window")
        }
        if report.errorCount > 0 {
            let first = report.errorMessages.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            throw BenchFailure("\(report.errorCount) of \(report.ops) calls failed (\(first))")
        }
    }
}
