import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import WorkoutServer
import SwiftProtobuf
import WorkoutProtocol
import WorkoutTLS

/// Runs a scenario against a server from one thread: every connection is a non-blocking socket
/// in one ``EventPoller``; no task, no lock, no allocation per call in the request scenarios.
///
/// A run goes through its phases in order:
/// 1. **setup**: the owner's connection (for Stats) and one load connection per member connect,
///    shake hands and log in (a login costs the server a memory-hard hash); then the other load
///    connections, the idle and the Watch ones connect and resume their member's session;
/// 2. **probe** (optional): one MealsOfDay of a preloaded day, decoded, to check the data;
/// 3. **warm-up**: the load runs, nothing is counted;
/// 4. **measure**: Admin.Stats is asked, then every call answered in the window is counted
///    and its latency recorded; at the end the load stops and Stats is asked again;
/// 5. **finish**: waits (boundedly) for that last Stats answer.
///
/// Afterwards (also after a failure or Ctrl-C) ``endSessions(timeoutSeconds:)`` logs out every
/// session the run signed in, so none is left in the members' session lists.
///
/// Closed loop: each load connection keeps `pipeline` calls in flight, sending the next as soon
/// as one is answered; latency runs from the send. Open loop (`rate`): each connection has a
/// schedule of intended send times (rate / connections per second, staggered); a call waits
/// for a free slot when the server lags, and its latency runs from its intended send time, so
/// a slow server's queueing is measured rather than hidden (no coordinated omission).
final class LoadDriver {
    enum Phase: String {
        case setup, probe, warmup = "warm-up", measure, finish, done, signOut = "sign-out"
    }

    /// Set from a signal handler (Ctrl-C): the run stops at its next turn and fails.
    static let interrupted = Atomic<Bool>(false)

    /// Says what the setup is doing ("signing in 3 members…").
    var say: (String) -> Void = { _ in }

    let settings: LoadSettings
    var bodies: RequestBodies
    let progress: (ProgressSample) -> Void
    let poller: EventPoller
    let address: sockaddr_in

    /// Every connection, by token: the admin (if any), the load connections, the idle ones.
    var connections: [LoadConnection] = []
    var admin: LoadConnection?
    var load: [LoadConnection] = []
    var idle: [LoadConnection] = []
    var watches: [LoadConnection] = []

    var phase = Phase.setup
    var outcome = LoadOutcome()
    /// Whether the scenario's calls are being made.
    var issuing = false
    /// Session tokens by member (the owner's under -1), from the logins.
    var tokens: [Int: [UInt8]] = [:]
    var ids = TimeOrderedIDGenerator(seed: UInt64(UInt32(truncatingIfNeeded: getpid())) << 32 | 0xB37C)
    var random = FastRandom(seed: 0xBE7C4_0000 &+ UInt64(UInt32(truncatingIfNeeded: getpid())))

    // Setup bookkeeping.
    var setupStartedAt: UInt64 = 0
    var setupDeadline: UInt64 = 0
    /// Connections waiting to start connecting (bounded concurrency), in order.
    var connectQueue: [LoadConnection] = []
    var connectQueueIndex = 0
    var setupInProgress = 0
    var loadReady = 0
    var idleReady = 0
    var watchReady = 0
    /// The first load connection of each member, which logs in; the others resume its session.
    var leaderCount = 0
    /// Sessions ended by ``endSessions(timeoutSeconds:)``, and its connections still at work.
    var sessionsEnded = 0
    /// The connections ending sessions that are done (answered, refused or failed), by token.
    var signOutDone: Set<Int> = []
    static let maxConcurrentSetup = 128

    // Load timing.
    var loadStartedAt: UInt64 = 0
    var windowStartedAt: UInt64 = 0
    var windowEndsAt: UInt64 = 0
    var finishDeadline: UInt64 = 0
    var clientCPUAtWindowStart: UInt64 = 0
    /// Nanoseconds between two calls of one connection in rate mode; 0 in closed loop.
    var rateInterval: UInt64 = 0
    var statsAnswers = 0
    /// When the Stats connection last sent a call (for ``statsKeepAliveInterval``).
    var statsAskedAt: UInt64 = 0
    /// The longest the Stats connection stays quiet during the load: well inside the server's
    /// default idle limit (300 s), which would otherwise end it in a long warm-up.
    static let statsKeepAliveInterval: UInt64 = 60_000_000_000
    /// Set by an answer that lets the next phase begin; acted on after the answers being
    /// handled (never inside a connection's frame handling, which the next phase may reset).
    var nextPhaseReady = false

    // Soak (`--soak`).
    var soak: SoakSampler?
    /// When the current minute of a soak ends (``MonotonicClock``).
    var nextMinuteAt: UInt64 = .max
    /// The Watch streams' events counted into the minutes closed so far.
    var watchEventsCounted: UInt64 = 0
    /// Told each soak minute as its Stats arrives (the minute's progress line).
    var minuteDone: (SoakMinute) -> Void = { _ in }

    // Progress.
    var nextTick: UInt64 = 0
    var tickStartedAt: UInt64 = 0
    var tickLatency = LatencyRecorder()
    var tickErrors: UInt64 = 0

    init(settings: LoadSettings, bodies: RequestBodies, progress: @escaping (ProgressSample) -> Void) throws {
        self.settings = settings
        self.bodies = bodies
        self.progress = progress
        self.address = try settings.address.socketAddress()
        self.poller = try EventPoller(capacity: 1024)
        if let minutes = settings.soakMinutes { soak = SoakSampler(capacity: minutes) }
    }

    deinit {
        for connection in connections where connection.descriptor >= 0 {
            poller.unregister(connection.descriptor)
            connection.close()
        }
        poller.close()
    }

    /// Runs the scenario and returns what it measured.
    ///
    /// - Throws: ``BenchFailure`` naming what failed: a connection that could not be made, a
    ///   login refused, a server that stopped answering, a setup or finish that timed out.
    func run() throws -> LoadOutcome {
        try makeConnections()
        let now = MonotonicClock.now()
        setupStartedAt = now
        setupDeadline = now + UInt64(settings.setupTimeoutSeconds * 1e9)
        nextTick = now + 1_000_000_000
        tickStartedAt = now
        if let admin { connectQueue.append(admin) }
        leaderCount = min(load.count, settings.plan.members)
        connectQueue += load.prefix(leaderCount)
        say("signing in \(leaderCount) member\(leaderCount == 1 ? "" : "s")\(admin == nil ? "" : " and the owner (for Admin.Stats)")…")
        try startQueuedConnects(now: now)
        while phase != .done {
            try poller.wait(until: nextDeadline()) { readiness in
                try handle(readiness)
            }
            let now = MonotonicClock.now()
            try advance(now: now)
        }
        return outcome
    }

    /// Makes the connection objects (none connected yet).
    private func makeConnections() throws {
        let tls: (context: TLSContext, serverKey: ServerKeyPin)?
        do {
            tls = settings.tls ? (try TLSContext.client(), ServerKeyPin()) : nil
        } catch {
            throw BenchFailure("--tls: the client's TLS context could not be made: \(error)")
        }
        let scripted = !settings.scenario.isRequestLoop
        let depth = scripted ? 4 : settings.pipeline
        if settings.askServerStats {
            let connection = LoadConnection(
                token: connections.count, role: .admin, member: -1, maxCallsInFlight: 4, receiveCapacity: 64 << 10,
                acceptsCompression: settings.acceptsCompression, tls: tls)
            connections.append(connection)
            admin = connection
        }
        for index in 0..<settings.connections {
            let connection = LoadConnection(
                token: connections.count, role: .load, member: index % settings.plan.members, maxCallsInFlight: max(depth, 2),
                receiveCapacity: 256 << 10, acceptsCompression: settings.acceptsCompression, tls: tls)
            connections.append(connection)
            load.append(connection)
        }
        for index in 0..<settings.idleConnections {
            let connection = LoadConnection(
                token: connections.count, role: .idle, member: index % settings.membersUsed, maxCallsInFlight: 1,
                receiveCapacity: 4 << 10, acceptsCompression: settings.acceptsCompression, tls: tls)
            connections.append(connection)
            idle.append(connection)
        }
        for index in 0..<settings.watchStreams {
            let connection = LoadConnection(
                token: connections.count, role: .watch, member: (index * LoadSettings.soakMembersPerWatch) % settings.membersUsed,
                maxCallsInFlight: 2, receiveCapacity: 64 << 10, acceptsCompression: settings.acceptsCompression, tls: tls)
            connections.append(connection)
            watches.append(connection)
        }
    }

    // MARK: The loop

    /// The earliest time the loop must wake: the next progress tick, the phase's deadline, the
    /// next scheduled call in rate mode.
    private func nextDeadline() -> UInt64 {
        var deadline = nextTick
        switch phase {
        case .setup, .probe, .signOut: deadline = min(deadline, setupDeadline)
        case .warmup: deadline = min(deadline, windowStartedAt)
        case .measure: deadline = min(deadline, windowEndsAt, nextMinuteAt)
        case .finish: deadline = min(deadline, finishDeadline)
        case .done: break
        }
        if rateInterval > 0 && issuing {
            let scripted = !settings.scenario.isRequestLoop
            for connection in load {
                let waiting = scripted
                    ? connection.stage == .closed
                    : connection.stage == .open && connection.inFlight < settings.pipeline
                if waiting { deadline = min(deadline, connection.nextDue) }
            }
        }
        return deadline
    }

    /// Handles one ready connection.
    private func handle(_ readiness: EventPoller.Readiness) throws {
        let connection = connections[readiness.token]
        guard connection.descriptor >= 0 else { return }
        do {
            switch connection.stage {
            case .closed:
                return
            case .connecting:
                guard readiness.writable || readiness.failed else { return }
                try connection.finishConnect()
                try flush(connection)
            case .handshaking, .open:
                if readiness.readable || readiness.failed {
                    let wasOpen = connection.stage == .open
                    let now = MonotonicClock.now()
                    let stillOpen = try connection.receive { answer in
                        try self.answered(answer, on: connection, now: now)
                    }
                    if connection.roundFinished {
                        try finishRound(connection, now: now)
                        return
                    }
                    if !wasOpen && connection.stage == .open { try opened(connection, now: now) }
                    if !stillOpen { throw LoadConnection.Failure(description: "the server closed the connection") }
                }
                if connection.descriptor >= 0 { try flush(connection) }
            }
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure(describeFailure(error, on: connection))
        }
    }

    /// "cannot connect to …", "connection 3 (member3@…): …".
    private func describeFailure(_ error: any Error, on connection: LoadConnection) -> String {
        if let error = error as? SystemCallError, error.call == "connect" {
            return "cannot connect to \(settings.address): \(String(cString: strerror(error.errno)))"
        }
        let who = connection.member < 0 ? settings.plan.ownerEmail : settings.plan.memberEmail(connection.member)
        let role = switch connection.role {
        case .admin: "the Stats connection"
        case .load: "load connection \(connection.token - (admin == nil ? 0 : 1))"
        case .idle: "idle connection \(connection.token - load.count - (admin == nil ? 0 : 1))"
        case .watch: "Watch connection \(connection.token - load.count - idle.count - (admin == nil ? 0 : 1))"
        }
        return "\(role) (\(who)) to \(settings.address) during \(phase.rawValue): \(error)"
    }

    /// Writes what `connection` has queued, and watches it for writability while some is left.
    func flush(_ connection: LoadConnection) throws {
        let done = try connection.flush()
        if done == connection.watchesWritable {
            connection.watchesWritable = !done
            try poller.modify(connection.descriptor, token: connection.token, writable: !done)
        }
    }

    /// Starts connecting queued connections while fewer than the limit are being set up.
    private func startQueuedConnects(now: UInt64) throws {
        while setupInProgress < Self.maxConcurrentSetup && connectQueueIndex < connectQueue.count {
            let connection = connectQueue[connectQueueIndex]
            connectQueueIndex += 1
            setupInProgress += 1
            try connect(connection, now: now)
        }
    }

    /// Starts a connect and watches it.
    func connect(_ connection: LoadConnection, now: UInt64) throws {
        do {
            try connection.connect(to: address, now: now)
        } catch {
            throw BenchFailure(describeFailure(error, on: connection))
        }
        connection.watchesWritable = true
        try poller.register(connection.descriptor, token: connection.token, writable: true)
    }

    /// Closes a connection's socket (it may connect again).
    func disconnect(_ connection: LoadConnection) {
        guard connection.descriptor >= 0 else { return }
        poller.unregister(connection.descriptor)
        connection.close()
    }

    /// A connection has exchanged HELLOs.
    private func opened(_ connection: LoadConnection, now: UInt64) throws {
        if connection.role == .load, let limit = connection.serverHello?.maxCallsInFlight {
            outcome.serverMaxCallsInFlight = limit
            if settings.scenario.isRequestLoop && limit > 0 && settings.pipeline > Int(limit) {
                throw BenchFailure("--pipeline \(settings.pipeline) is more than the server's limit of \(limit) calls in flight per connection")
            }
        }
        switch (phase, connection.role) {
        case (.setup, .admin):
            try connection.startCall(method: MethodCatalog.login.number, body: bodies.ownerLogin, purpose: .login, sentAt: now)
        case (.setup, .load):
            if let token = tokens[connection.member] {
                try connection.startCall(method: MethodCatalog.resume.number, body: try RequestBodies.resume(token: token), purpose: .resume, sentAt: now)
            } else {
                try connection.startCall(method: MethodCatalog.login.number, body: bodies.memberLogins[connection.member], purpose: .login, sentAt: now)
            }
        case (.signOut, _):
            let token = tokens[connection.member] ?? []
            try connection.startCall(method: MethodCatalog.resume.number, body: try RequestBodies.resume(token: token), purpose: .resume, sentAt: now)
        case (.setup, .idle), (.setup, .watch):
            let token = tokens[connection.member] ?? []
            try connection.startCall(method: MethodCatalog.resume.number, body: try RequestBodies.resume(token: token), purpose: .resume, sentAt: now)
        case (_, .load):
            try scriptedConnectionOpened(connection, now: now)
        default:
            break
        }
    }

    /// A call's final frame arrived.
    @inline(__always)
    private func answered(_ answer: LoadConnection.Answer, on connection: LoadConnection, now: UInt64) throws {
        if phase == .signOut {
            try signOutAnswered(answer, on: connection, now: now)
            return
        }
        switch answer.call.purpose {
        case .load:
            try loadCallAnswered(answer, on: connection, now: now)
        case .login, .resume:
            try setupCallAnswered(answer, on: connection, now: now)
        case .logout:
            break
        case .stats:
            let stats = try decode(answer, as: Workout_V1_StatsResponse.self, what: "Admin.Stats")
            if statsAnswers == 0 {
                outcome.statsBefore = stats
                soak?.setBaseline(stats)
            } else {
                outcome.statsAfter = stats
            }
            if answer.call.tag != 0 { soakMinuteAnswered(Int(answer.call.tag), stats: stats) }
            statsAnswers += 1
        case .minuteStats:
            let stats = try decode(answer, as: Workout_V1_StatsResponse.self, what: "Admin.Stats (a soak's minute)")
            soakMinuteAnswered(Int(answer.call.tag), stats: stats)
        case .watch:
            try watchEnded(answer, on: connection)
        case .keepAlive:
            _ = try decode(answer, as: Workout_V1_StatsResponse.self, what: "Admin.Stats (keeping the Stats connection alive)")
        case .probe:
            let meals = try decode(answer, as: Workout_V1_MealsOfDayResponse.self, what: "the preload check (Queries.MealsOfDay)")
            outcome.probedMeals = meals.meals.count
            nextPhaseReady = true
        }
    }

    /// Decodes an answer's message, or fails with its status.
    func decode<Message: SwiftProtobuf.Message>(_ answer: LoadConnection.Answer, as type: Message.Type, what: String) throws -> Message {
        let payload = Array(answer.payload)
        guard answer.status == 0 else {
            throw BenchFailure("\(what) failed: \(LoadConnection.statusText(StatusCode(rawValue: answer.status), payload))")
        }
        let body = try Frame(type: .response, callID: 1, isCompressed: answer.compressed, body: payload)
            .decodedBody(maxDecompressedSize: LoadConnection.maxReceivedFrameSize)
        return try Message(serializedBytes: body)
    }

    /// A login or resume of the setup was answered.
    private func setupCallAnswered(_ answer: LoadConnection.Answer, on connection: LoadConnection, now: UInt64) throws {
        let who = connection.member < 0 ? settings.plan.ownerEmail : settings.plan.memberEmail(connection.member)
        if answer.call.purpose == .login {
            let what = connection.role == .admin
                ? "logging in as the owner \(who) for Admin.Stats (pass the admin's --admin-email and --password, or --no-server-stats)"
                : "logging in as \(who)"
            let response = try decode(answer, as: Workout_V1_LoginResponse.self, what: what)
            tokens[connection.member] = Array(response.sessionToken)
        } else {
            let what = switch connection.role {
            case .watch: "a Watch connection"
            case .load: "a load connection"
            default: "an idle connection"
            }
            _ = try decode(answer, as: Workout_V1_ResumeResponse.self, what: "resuming \(who)'s session on \(what)")
        }
        connection.authenticated = true
        setupInProgress -= 1
        switch connection.role {
        case .admin: break
        case .load: loadReady += 1
        case .idle: idleReady += 1
        case .watch:
            try startWatch(on: connection, now: now)
            watchReady += 1
        }
        if connection.role == .load && loadReady == leaderCount {
            // Every member is signed in: the other connections resume their sessions.
            let others = load.count - leaderCount + idle.count + watches.count
            if others > 0 { say("opening \(others) more connection\(others == 1 ? "" : "s") on those sessions…") }
            connectQueue += load.dropFirst(leaderCount)
        }
        if connection.role == .load && loadReady == load.count {
            connectQueue += idle
            connectQueue += watches
        }
        try startQueuedConnects(now: now)
        if loadReady == load.count && idleReady == idle.count && watchReady == watches.count && (admin?.authenticated ?? true) {
            nextPhaseReady = true
        }
    }

    /// Everyone is connected and logged in.
    private func setupDone(now: UInt64) throws {
        outcome.setupSeconds = Double(now - setupStartedAt) / 1e9
        if settings.probePreloadedDay && settings.plan.days > 0, let first = load.first {
            phase = .probe
            try first.startCall(
                method: MethodCatalog.mealsOfDay.number, body: bodies.mealsOfDay[settings.plan.days / 2], purpose: .probe, sentAt: now)
            try flush(first)
        } else {
            try startLoad(now: now)
        }
    }

    /// Starts the scenario's load (and the warm-up).
    private func startLoad(now: UInt64) throws {
        loadStartedAt = now
        windowStartedAt = now + UInt64(settings.warmupSeconds * 1e9)
        windowEndsAt = windowStartedAt + UInt64(settings.durationSeconds * 1e9)
        nextTick = now + 1_000_000_000
        tickStartedAt = now
        tickLatency.reset()
        issuing = true
        phase = .warmup
        if let rate = settings.rate {
            // A request scenario's connection sends one call per interval; a household
            // connection begins one round (about seven calls) per interval.
            let callsPerTurn = settings.scenario.isRequestLoop ? 1 : LoadSettings.householdCallsPerRound
            rateInterval = max(1, UInt64(1e9 * Double(settings.connections * callsPerTurn) / rate))
        }
        try startScenario(now: now)
        if windowStartedAt <= now { try beginWindow(now: now) }
    }

    /// Moves through the phases by the clock, issues scheduled calls, prints progress.
    private func advance(now: UInt64) throws {
        if Self.interrupted.load(ordering: .relaxed) { throw BenchFailure("interrupted (Ctrl-C)") }
        switch phase {
        case .setup, .probe:
            if nextPhaseReady {
                nextPhaseReady = false
                if phase == .setup { try setupDone(now: now) } else { try startLoad(now: now) }
                return
            }
            if now >= setupDeadline {
                let wanted = load.count + idle.count + watches.count + (admin == nil ? 0 : 1)
                let ready = loadReady + idleReady + watchReady + (admin?.authenticated == true ? 1 : 0)
                throw BenchFailure(
                    "connecting and logging in did not finish within \(Int(settings.setupTimeoutSeconds)) s: \(ready) of \(wanted) connections ready (server \(settings.address))")
            }
        case .warmup:
            if now >= windowStartedAt { try beginWindow(now: now) }
        case .measure:
            if now >= windowEndsAt {
                try endWindow(now: now)
            } else if now >= nextMinuteAt {
                try endMinute(now: now)
            }
        case .finish:
            if (statsAnswers >= 2 && (soak?.minutesWaiting ?? 0) == 0) || admin == nil {
                if let soak { outcome.soakMinutes = soak.minutes }
                phase = .done
            } else if now >= finishDeadline {
                throw BenchFailure("the server did not answer Admin.Stats within 10 s after the run")
            }
        case .done, .signOut:
            break
        }
        if phase == .warmup || phase == .measure, admin?.authenticated == true, now >= statsAskedAt + Self.statsKeepAliveInterval {
            try askStats(now: now, purpose: .keepAlive)
        }
        if rateInterval > 0 && issuing { try issueScheduledCalls(now: now) }
        if now >= nextTick && phase != .done {
            try checkConnectTimeouts(now: now)
            reportProgress(now: now)
        }
    }

    /// The measured window begins: counters are cleared and the server's figures asked.
    private func beginWindow(now: UInt64) throws {
        phase = .measure
        windowStartedAt = now
        windowEndsAt = now + UInt64(settings.durationSeconds * 1e9)
        outcome.latency.reset()
        outcome.ops = 0
        outcome.errors = ErrorTally()
        outcome.cycles = 0
        clientCPUAtWindowStart = ProcessCPUTime.microseconds()
        try askStats(now: now)
        if soak != nil { try beginSoak(now: now) }
    }

    /// The measured window ends: no new calls, the server's figures asked again.
    private func endWindow(now: UInt64) throws {
        issuing = false
        outcome.windowSeconds = Double(now - windowStartedAt) / 1e9
        outcome.clientCPUMicroseconds = ProcessCPUTime.microseconds() - clientCPUAtWindowStart
        phase = .finish
        finishDeadline = now + 10_000_000_000
        try askStats(now: now, minute: closeSoakMinute())
        if admin == nil {
            if let soak { outcome.soakMinutes = soak.minutes }
            phase = .done
        }
    }

    /// Asks Admin.Stats; `minute` (from 1) when the answer also ends a soak's minute.
    func askStats(now: UInt64, minute: Int? = nil, purpose: CallPurpose = .stats) throws {
        guard let admin else { return }
        statsAskedAt = now
        try admin.startCall(method: MethodCatalog.stats.number, body: [], purpose: purpose, sentAt: now, tag: UInt32(minute ?? 0))
        try flush(admin)
    }

    /// Counts a call of the scenario answered at `now`, if inside the window.
    @inline(__always)
    func count(_ answer: LoadConnection.Answer, latency: UInt64, now: UInt64) {
        tickLatency.record(nanoseconds: latency)
        if answer.status != 0 { tickErrors += 1 }
        guard phase == .measure && now >= windowStartedAt && now < windowEndsAt else { return }
        soak?.record(nanoseconds: latency, failed: answer.status != 0)
        outcome.ops += 1
        if admin != nil && outcome.statsBefore == nil { outcome.opsBeforeStatsBefore += 1 }
        outcome.latency.record(nanoseconds: latency)
        if answer.status != 0 {
            outcome.errors.record(status: answer.status) {
                LoadConnection.statusText(StatusCode(rawValue: answer.status), Array(answer.payload))
            }
        }
    }

    /// The longest a connect may take before the run gives up.
    static let connectTimeout: UInt64 = 10_000_000_000

    /// Fails when a connection has been connecting for longer than ``connectTimeout`` (a host
    /// that drops packets answers nothing at all).
    private func checkConnectTimeouts(now: UInt64) throws {
        for connection in connections where connection.stage == .connecting && now - connection.connectStartedAt > Self.connectTimeout {
            throw BenchFailure("cannot connect to \(settings.address): no answer within \(Self.connectTimeout / 1_000_000_000) s")
        }
    }

    /// Prints one progress line.
    private func reportProgress(now: UInt64) {
        let interval = Double(now - tickStartedAt) / 1e9
        var note = ""
        if phase == .setup {
            note = "\(loadReady)/\(load.count) load connections logged in"
            if !idle.isEmpty { note += ", \(idleReady)/\(idle.count) idle connections open" }
            if !watches.isEmpty { note += ", \(watchReady)/\(watches.count) Watch streams open" }
        }
        progress(ProgressSample(
            phase: phase.rawValue,
            elapsedSeconds: loadStartedAt > 0 ? Double(now - loadStartedAt) / 1e9 : Double(now - setupStartedAt) / 1e9,
            opsPerSecond: interval > 0 ? Double(tickLatency.count) / interval : 0,
            p99Microseconds: tickLatency.microseconds(atPercentile: 99),
            errors: tickErrors, note: note))
        tickLatency.reset()
        tickErrors = 0
        tickStartedAt = now
        while nextTick <= now { nextTick += 1_000_000_000 }
    }
}

// MARK: Ending the run's sessions

extension LoadDriver {
    /// Logs out every session the run signed in (the members' and the owner's), each on a
    /// fresh connection (Auth.Resume, then Auth.Logout), so that none is left in the members'
    /// session lists; the run's own connections are closed first. Called after the run, after
    /// a failure and after Ctrl-C.
    ///
    /// - Parameter timeoutSeconds: The most it waits for the server.
    /// - Returns: How many sessions were ended, of how many.
    func endSessions(timeoutSeconds: Double = 10) -> (ended: Int, of: Int) {
        let sessions = tokens.keys.sorted()
        guard !sessions.isEmpty else { return (0, 0) }
        for connection in connections { disconnect(connection) }
        phase = .signOut
        issuing = false
        var now = MonotonicClock.now()
        setupDeadline = now + UInt64(timeoutSeconds * 1e9)
        nextTick = setupDeadline
        let tls: (context: TLSContext, serverKey: ServerKeyPin)? = settings.tls ? (try? TLSContext.client()).map { ($0, ServerKeyPin()) } : nil
        sessionsEnded = 0
        signOutDone = []
        var started: [LoadConnection] = []
        for member in sessions {
            let connection = LoadConnection(
                token: connections.count, role: .idle, member: member, maxCallsInFlight: 2, receiveCapacity: 4 << 10,
                acceptsCompression: false, tls: tls)
            connections.append(connection)
            guard (try? connect(connection, now: now)) != nil else { continue }
            started.append(connection)
        }
        while signOutDone.count < started.count && now < setupDeadline {
            do {
                try poller.wait(until: setupDeadline) { readiness in
                    do {
                        try handle(readiness)
                    } catch {
                        // That session stays; the others are still ended.
                        signOutDone.insert(readiness.token)
                    }
                }
            } catch {
                break
            }
            for connection in started where signOutDone.contains(connection.token) { disconnect(connection) }
            now = MonotonicClock.now()
        }
        for connection in connections { disconnect(connection) }
        phase = .done
        return (sessionsEnded, sessions.count)
    }

    /// An answer on a connection ending a session: the resume is followed by the logout; the
    /// logout's answer ends the connection.
    fileprivate func signOutAnswered(_ answer: LoadConnection.Answer, on connection: LoadConnection, now: UInt64) throws {
        switch answer.call.purpose {
        case .resume where answer.status == 0:
            try connection.startCall(method: MethodCatalog.logout.number, body: [], purpose: .logout, sentAt: now)
            try flush(connection)
            return
        case .logout where answer.status == 0:
            sessionsEnded += 1
        default:
            break  // refused (expired, or revoked meanwhile): nothing left to end
        }
        signOutDone.insert(connection.token)
    }
}
