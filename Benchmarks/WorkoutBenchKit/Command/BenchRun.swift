import Foundation

/// One invocation of the bench from start to end: raise the descriptor limit, prepare the
/// data and the server (unless `--server`), drive the load, stop the server, write the report.
struct BenchRun {
    let command: WorkoutBenchCommand
    /// Prints a line on standard error.
    let say: @Sendable (String) -> Void

    init(command: WorkoutBenchCommand, say: @escaping @Sendable (String) -> Void) {
        self.command = command
        self.say = say
    }

    /// Runs; returns the report (`nil` with `--preload-only`).
    ///
    /// - Throws: ``BenchFailure`` with a message for the person running it.
    func execute() throws -> BenchReport? {
        let plan = DataPlan(
            members: command.users, recordsPerMember: command.preload, mealsPerDay: command.mealsPerDay,
            nowMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), memberEmailTemplate: command.memberEmail,
            ownerEmail: command.adminEmail, password: command.password)
        let watchStreams = command.soak == nil ? 0 : LoadSettings.soakWatchStreams(membersUsed: min(command.connections, plan.members))
        let held = command.connections + command.idleConnections + watchStreams + 1
        let embedded = command.server == nil
        do {
            // The bench's sockets, and (inherited) the child's: as many again, plus its store and listeners.
            try FileDescriptorLimit.raise(toAtLeast: (embedded ? 2 * held : held) + 256)
        } catch {
            throw BenchFailure("cannot hold \(held) connections: \(error) (raise the hard limit with ulimit -Hn)")
        }
        if command.preloadOnly, let directory = command.dataDirectory {
            let summary = try preload(plan, into: directory)
            say("preloaded \(summary.records) records in \(String(format: "%.1f", summary.seconds)) s into \(directory)")
            return nil
        }
        if let server = command.server, let address = ServerAddress(parsing: server) {
            let outcome = try drive(plan: plan, address: address)
            return try finish(report(outcome, plan: plan, server: address.description + (command.tls ? " (TLS)" : ""), preloadSeconds: nil))
        }
        let workoutd = try command.workoutd ?? WorkoutdLocator.besideThisExecutable() ?? {
            throw BenchFailure("no workoutd next to workout-bench; build it (swift build -c release --product workoutd) or pass --workoutd PATH")
        }()
        let workDirectory = try Self.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: workDirectory) }
        let dataDirectory = command.dataDirectory ?? (workDirectory as NSString).appendingPathComponent("data")
        var preloadSeconds: Double?
        if FileManager.default.fileExists(atPath: (dataDirectory as NSString).appendingPathComponent("data.mdb")) {
            say("using the store already in \(dataDirectory) (no preload)")
        } else {
            let summary = try preload(plan, into: dataDirectory)
            preloadSeconds = summary.seconds
            say("preload: \(summary.records) records for \(plan.members) members in \(String(format: "%.1f", summary.seconds)) s (\(summary.commits) commits)")
        }
        let server = try EmbeddedServer(
            workoutd: workoutd, dataDirectory: dataDirectory, workDirectory: workDirectory, connections: held, tls: command.tls)
        let outcome: LoadOutcome
        do {
            say("workoutd (pid \(server.processIdentifier)) listening on \(server.address)")
            outcome = try drive(plan: plan, address: server.address)
        } catch {
            server.stop()
            throw error
        }
        if !server.stop() { say("workoutd did not stop within 15 s of SIGTERM and was killed") }
        return try finish(report(outcome, plan: plan, server: command.tls ? "embedded (TLS)" : "embedded", preloadSeconds: preloadSeconds))
    }

    private func preload(_ plan: DataPlan, into directory: String) throws -> Preloader.Summary {
        say("preload: \(plan.members) members × \(plan.recordsPerMember) meals (\(plan.mealsPerDay) a day over \(plan.days) days) and a workout a day")
        let say = self.say
        return try Preloader(plan: plan).run(directory: directory) { say("preload: \($0)") }
    }

    private func drive(plan: DataPlan, address: ServerAddress) throws -> LoadOutcome {
        var settings = LoadSettings(
            scenario: command.scenario, address: address, connections: command.connections, pipeline: command.pipeline,
            warmupSeconds: command.warmup, durationSeconds: command.duration, rate: command.rate,
            idleConnections: command.idleConnections, plan: plan, askServerStats: !command.noServerStats,
            acceptsCompression: command.compression, connectAuthentication: command.connectAuthentication,
            probePreloadedDay: plan.days > 0 && command.server == nil, setupTimeoutSeconds: command.setupTimeout)
        settings.tls = command.tls
        if let minutes = command.soak { settings.makeSoak(minutes: minutes) }
        let bodies = try RequestBodies(plan: plan, membersUsed: settings.membersUsed)
        let quiet = command.quiet
        let say = self.say
        let soaking = command.soak != nil
        let driver = try LoadDriver(settings: settings, bodies: bodies) { sample in
            // A soak prints a line a minute instead of a line a second once it measures.
            if !quiet && !(soaking && sample.phase == LoadDriver.Phase.measure.rawValue) { say(ProgressLine.render(sample)) }
        }
        let minutes = settings.soakMinutes ?? 0
        driver.minuteDone = { minute in
            if !quiet { say(SoakProgressLine.render(minute, of: minutes)) }
        }
        driver.say = say
        // Ctrl-C stops the run at its next turn, so that its sessions are still ended (and an
        // embedded server is stopped by the failure's path); the handler before comes back after.
        let previous = signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { LoadDriver.interrupted.store(true, ordering: .relaxed) }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, previous)
        }
        let outcome: LoadOutcome
        do {
            outcome = try driver.run()
        } catch {
            endSessions(of: driver)
            throw error
        }
        endSessions(of: driver)
        if let probed = outcome.probedMeals, probed != min(plan.mealsPerDay, plan.recordsPerMember) {
            say("warning: a preloaded day holds \(probed) meals, not the \(plan.mealsPerDay) planned (a store preloaded on another day, or other data?)")
        }
        return outcome
    }

    /// Logs out the sessions the run signed in, and says so.
    private func endSessions(of driver: LoadDriver) {
        let count = driver.tokens.count
        guard count > 0 else { return }
        say("ending the \(count) session\(count == 1 ? "" : "s") the run signed in…")
        let (ended, of) = driver.endSessions()
        if ended < of { say("warning: \(of - ended) of \(of) sessions could not be ended; they expire on their own (`workout sessions` lists them)") }
    }

    private func report(_ outcome: LoadOutcome, plan: DataPlan, server: String, preloadSeconds: Double?) -> BenchReport {
        BenchReport(
            scenario: command.scenario.rawValue, server: server, connections: command.connections,
            pipeline: command.scenario.isRequestLoop ? command.pipeline : 1, rate: command.rate,
            idleConnections: command.idleConnections, users: plan.members,
            // Against a server, its data is its own: the bench preloaded nothing.
            preloadPerUser: command.server == nil ? plan.recordsPerMember : 0,
            preloadSeconds: preloadSeconds, warmupSeconds: command.warmup, compression: command.compression, outcome: outcome)
    }

    /// Writes the JSON file if asked.
    private func finish(_ report: BenchReport) throws -> BenchReport {
        if let path = command.json {
            do {
                try report.json().write(to: URL(fileURLWithPath: path))
            } catch {
                throw BenchFailure("cannot write the report to \(path): \(error.localizedDescription)")
            }
        }
        return report
    }

    /// A fresh private directory under the system's temporary directory (mkdtemp).
    static func makeTemporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("workout-bench-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchFailure("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
