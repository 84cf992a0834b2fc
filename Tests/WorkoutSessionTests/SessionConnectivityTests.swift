import ClientTestSupport
import Foundation
import Observation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// Records every value of the figures an app would render: after each change, once the main
/// actor has finished the turn that made it.
@MainActor
final class FigureRecorder {
    /// The totals' workout counts and calories, and the week's workout counts, in order.
    private(set) var workouts: [Int] = []
    private(set) var calories: [Double] = []
    private(set) var weekWorkouts: [Int] = []
    private let session: WorkoutSession

    init(_ session: WorkoutSession) {
        self.session = session
        record()
    }

    private func record() {
        if let totals = session.totals, workouts.last != totals.totalWorkouts || calories.last != totals.totalCaloriesBurned {
            workouts.append(totals.totalWorkouts)
            calories.append(totals.totalCaloriesBurned)
        }
        if let week = session.week, weekWorkouts.last != week.workouts { weekWorkouts.append(week.workouts) }
        withObservationTracking {
            _ = session.totals
            _ = session.week
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in self?.record() }
        }
    }
}

/// The session model says whether it reaches the server, and behaves by it, through the real
/// server (and a relay that can hang in front of it).
@Suite("Session model connectivity, end to end")
struct SessionConnectivityTests {
    static let account = "owner@example.com on loopback"
    static let zone = "Europe/Berlin"

    /// Quick to give up connecting, so that "unreachable" comes soon; the Watch keeps trying.
    static let impatient = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200), maximumAttempts: 2)

    /// A client through `relay`: a short keepalive, a short connect timeout, one attempt per
    /// connection, and `retryDelay` between the Watch's attempts; patient calls (a hung server is
    /// noticed by the keepalive, not by a deadline).
    static func client(through relay: HangingRelay, retryDelay: Duration) -> WorkoutClient {
        WorkoutClient(configuration: .init(
            // Connecting (TCP and the protocol's handshake) took over 3 s twice in one CI-like
            // run with the whole client suite loading the two cores; a hung relay is noticed by
            // the keepalive, never by this timeout, so it can be generous.
            address: ServerAddress(host: "127.0.0.1", port: relay.port), deviceName: "phone", connectTimeout: .seconds(10),
            callTimeout: .seconds(60),
            reconnect: ReconnectPolicy(initialDelay: retryDelay, maximumDelay: retryDelay, jitter: 0, maximumAttempts: 1),
            transportSecurity: .plainTCP(),
            // Short enough to notice a hung server well inside the tests' bounds, long enough that
            // a login on a loaded two-core machine (the whole client suite runs at once) is not
            // taken for one.
            keepalive: KeepalivePolicy(interval: .seconds(1), timeout: .seconds(5))))
    }

    @Test("started from its snapshot while the server is down, the model ends loading, says unreachable with the error, and goes live when the server is back")
    func unreachableThenLive() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveServer.run { @MainActor live in
                let storage = WorkoutSession.Storage(snapshotPath: directory + "/session.snapshot", account: Self.account)
                let phone = live.client(device: "phone")
                let first = WorkoutSession(client: phone, storage: storage)
                try await first.login(email: ownerEmail, password: ownerPassword)
                try await first.waitUntilLive(timeout: .seconds(20))
                #expect(first.connectivity == .live)
                try await first.saveSnapshot()
                first.close()
                #expect(first.connectivity == .idle)
                let token = try #require(phone.sessionToken)
                phone.close()

                await live.stop()
                let client = live.client(device: "phone", token: token, reconnect: Self.impatient)
                let session = WorkoutSession(client: client, storage: storage)
                try await session.resume()
                #expect(session.isLoading)
                #expect(await observe(session, within: .seconds(30)) {
                    if case .unreachable = session.connectivity { true } else { false }
                })
                guard case .unreachable(let lastError, let since) = session.connectivity else { return }
                #expect(!session.isLoading)
                #expect(!session.isLive)
                #expect(session.lastError == lastError)
                #expect(lastError.code == .unavailable)
                #expect(since <= Date())

                try live.start()
                try await session.waitUntilLive(timeout: .seconds(30))
                #expect(session.connectivity == .live)
                #expect(session.lastError == nil)
                #expect(!session.isLoading && !session.isStale)
                session.close()
                client.close()
            }
        }
    }

    @Test("a write made while the model knows the server is unreachable is queued at once, without a connection attempt, and sent when it is live again")
    func writeWhileUnreachable() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveServer.run { @MainActor live in
                let relay = try HangingRelay(to: live.port)
                defer { relay.stop() }
                // After a failed attempt the Watch waits 5 s before the next: a write that tried to
                // connect meanwhile would show as a connection the relay accepted.
                let client = Self.client(through: relay, retryDelay: .seconds(5))
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                let session = WorkoutSession(client: client, storage: .init(
                    snapshotPath: directory + "/session.snapshot", account: Self.account, outbox: outbox))
                try await session.login(email: ownerEmail, password: ownerPassword)
                try await session.waitUntilLive(timeout: .seconds(20))

                relay.hang()
                #expect(await observe(session, within: .seconds(30)) {
                    if case .unreachable = session.connectivity { true } else { false }
                })
                let attempts = relay.acceptedConnections
                let workout = Workout(type: "rowing", durationSeconds: 900, caloriesBurned: 150,
                                      performedAt: Date().addingTimeInterval(-300), timeZone: Self.zone)
                let delivery = try await session.perform(.logWorkout(workout))
                guard case .queued(let queued, let reason) = delivery else {
                    Issue.record("the write was not queued: \(delivery)")
                    return
                }
                #expect(relay.acceptedConnections == attempts, "the write tried to connect")
                #expect(queued.waitingEntry?.write == .logWorkout(workout))
                #expect(reason == session.lastError)
                #expect(outbox.count == 1)
                #expect(session.isPending(workout.id))
                #expect(session.totals?.totalWorkouts == 1)

                relay.recover()
                #expect(await observe(session, within: .seconds(30)) {
                    session.connectivity == .live && session.pendingWrites.isEmpty && !session.isPending(workout.id)
                })
                #expect(outbox.isEmpty)
                #expect(session.totals?.totalWorkouts == 1)
                let server = try await client.workoutHistory(pageSize: 5)
                #expect(server.items.map(\.id) == [workout.id])
                session.close()
                client.close()
                outbox.close()
            }
        }
    }

    @Test("a server that accepts and never answers is shown as not live within the configured keepalive")
    func hungServer() async throws {
        try await LiveServer.run { @MainActor live in
            let relay = try HangingRelay(to: live.port)
            defer { relay.stop() }
            let client = Self.client(through: relay, retryDelay: .seconds(1))
            let session = WorkoutSession(client: client)
            try await session.login(email: ownerEmail, password: ownerPassword)
            try await session.waitUntilLive(timeout: .seconds(20))
            #expect(session.connectivity == .live)

            // The server announces a 30 s ping interval and calls may take 60 s: only the
            // client's keepalive (1 s, then 5 s) notices within the bound.
            relay.hang()
            #expect(await observe(session, within: .seconds(20)) { session.connectivity.isOffline })
            #expect(!session.isLive)
            switch session.connectivity {
            case .reconnecting(let error), .unreachable(let error, _): #expect(error.code == .unavailable)
            default: Issue.record("not offline: \(session.connectivity)")
            }
            session.close()
            client.close()
        }
    }

    @Test("while several queued writes are sent, the totals and the week never go back")
    func drainPublishesOnce() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveServer.run { @MainActor live in
                let now = Date()
                let client = live.client(device: "phone", reconnect: Self.impatient)
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                let session = WorkoutSession(client: client, storage: .init(
                    snapshotPath: directory + "/session.snapshot", account: Self.account, outbox: outbox))
                try await session.login(email: ownerEmail, password: ownerPassword)
                try await session.waitUntilLive(timeout: .seconds(20))
                try await session.log(Workout(type: "running", durationSeconds: 1_800, caloriesBurned: 320,
                                              performedAt: earlierToday(3_600, before: now, in: Self.zone), timeZone: Self.zone))
                #expect(await observe(session) { session.week?.workouts == 1 })

                await live.stop()
                #expect(await observe(session, within: .seconds(30)) {
                    if case .unreachable = session.connectivity { true } else { false }
                })
                for index in 0..<4 {
                    let workout = Workout(type: "cycling", durationSeconds: 600, caloriesBurned: 100 + Double(index),
                                          performedAt: earlierToday(Double(600 * (index + 1)), before: now, in: Self.zone), timeZone: Self.zone)
                    guard case .queued = try await session.perform(.logWorkout(workout)) else {
                        Issue.record("write \(index) was not queued")
                        return
                    }
                }
                #expect(session.totals?.totalWorkouts == 5)
                #expect(session.week?.workouts == 5)
                let recorder = FigureRecorder(session)

                try live.start()
                #expect(await observe(session, within: .seconds(30)) { session.isLive && session.pendingWrites.isEmpty })
                // The follow-ups (the week read again after each echo) land too.
                try await Task.sleep(for: .milliseconds(500))
                #expect(recorder.workouts.allSatisfy { $0 == 5 }, "totals went \(recorder.workouts)")
                #expect(recorder.calories.allSatisfy { $0 == recorder.calories.first }, "calories went \(recorder.calories)")
                #expect(recorder.weekWorkouts.allSatisfy { $0 == 5 }, "the week went \(recorder.weekWorkouts)")
                #expect(session.totals == (try await client.profile().totals))
                session.close()
                client.close()
                outbox.close()
            }
        }
    }
}
