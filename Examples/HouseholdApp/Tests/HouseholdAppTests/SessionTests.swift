import Testing
import WorkoutClient
import WorkoutOffline
import WorkoutSession

extension HouseholdAppTests {
    /// The session model as a SwiftUI app shows it: signed in and loaded, typed writes that
    /// show when they return, connectivity as the server goes away, writes queued offline and
    /// drained without a published value going back and forth, and a second launch.
    @Suite struct SessionTests {
        @Test @MainActor func onlineThenOfflineThenDrained() async throws {
            let server = try await TestServer("session")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("session-app")
            defer { app.remove() }
            let account = "\(Owner.email) on \(server.address)"
            // Reconnects quickly, and gives up (unreachable) after a few attempts.
            let client = WorkoutClient(
                configuration: .init(
                    address: server.address, deviceName: "Household iPhone", connectTimeout: .seconds(2),
                    reconnect: ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1), maximumAttempts: 4)),
                trust: appTrust(pinFile: app.file("known_servers"), confirming: true))
            defer { client.close() }
            let outbox = try Outbox(path: app.file("outbox.log"), account: account)
            defer { outbox.close() }
            let session = WorkoutSession(
                client: client, storage: .init(snapshotPath: app.file("session.snapshot"), account: account, outbox: outbox))
            defer { session.close() }
            let connectivity = PublishedValues { connectivityName(session.connectivity) }
            defer { connectivity.stop() }

            // Signed in and loaded.
            try await session.login(email: Owner.email, password: Owner.password)
            #expect(session.status == .signedIn)
            #expect(session.profile?.email == Owner.email)
            let today = try #require(session.today)
            let totalsAtStart = try #require(session.totals)
            #expect(session.week != nil)
            try await session.waitUntilLive(timeout: .seconds(10))
            #expect(session.connectivity == .live)

            // Typed writes: everything they change shows when they return, the week too.
            let run = try await session.log(Workout(type: "running", durationSeconds: 1800, caloriesBurned: 250))
            #expect(run.replayed == false)
            #expect(session.totals?.totalWorkouts == totalsAtStart.totalWorkouts + 1)
            #expect(session.recentWorkouts.first?.id == run.workout.id)
            #expect(session.week?.workouts == 1)
            _ = try await session.log(WeightEntry(weightKg: 71.5))
            #expect(session.weights.last?.weightKg == 71.5)
            _ = try await session.report(StepsReport(day: today, source: "phone", steps: 4321))
            #expect(session.todaysSteps == 4321)
            let totalsOnline = try #require(session.totals)

            // Out of bounds, online: refused with the field, nothing clamped or queued.
            let negativeSteps = await #expect(throws: WorkoutError.self) {
                try await session.report(StepsReport(day: today, source: "phone", steps: -1))
            }
            #expect(negativeSteps?.code == .invalidArgument)
            #expect(negativeSteps?.field == "report.steps")
            #expect(session.todaysSteps == 4321)
            let negativeDuration = await #expect(throws: WorkoutError.self) {
                try await session.perform(.logWorkout(Workout(type: "running", durationSeconds: -60)))
            }
            #expect(negativeDuration?.code == .invalidArgument)
            #expect(negativeDuration?.field == "workout.durationSeconds")
            #expect(outbox.isEmpty)

            // The server goes away: reconnecting, then unreachable once the attempts are spent.
            server.stop()
            try await waitUntil("the session is offline") { session.connectivity.isOffline }
            try await waitUntil("the session is unreachable", timeout: .seconds(30)) {
                if case .unreachable = session.connectivity { true } else { false }
            }
            #expect(session.isLive == false)
            if case .unreachable(let error, _) = session.connectivity {
                #expect(wordingProblems(error) == [])
            }

            // Offline, a write is queued at once and shows as pending.
            let offlineRun = Workout(type: "cycling", durationSeconds: 2400, caloriesBurned: 300)
            let clock = ContinuousClock()
            let started = clock.now
            let delivery = try await session.perform(.logWorkout(offlineRun))
            // Queued without trying the server (which took about 3 s a write before): a bound far
            // above the milliseconds it takes, for a loaded machine's fsync.
            #expect(clock.now - started < .milliseconds(1_500))
            guard case .queued = delivery else {
                Issue.record("an offline write was not queued: \(delivery)")
                return
            }
            #expect(session.isPending(offlineRun.id))
            #expect(session.pendingWrites.count == 1)
            #expect(session.totals?.totalWorkouts == totalsOnline.totalWorkouts + 1)
            #expect(session.recentWorkouts.first?.id == offlineRun.id)
            // Two more, so that the drain has several steps.
            let walk = try await session.perform(.logWorkout(Workout(type: "walking", durationSeconds: 900, caloriesBurned: 80)))
            let steps = try await session.perform(.reportSteps(StepsReport(day: today, source: "watch", steps: 9000)))
            guard case .queued = walk, case .queued = steps else {
                Issue.record("offline writes were not queued: \(walk), \(steps)")
                return
            }
            #expect(session.todaysSteps == 9000)
            #expect(session.totals?.totalWorkouts == totalsOnline.totalWorkouts + 2)

            // Out of bounds, offline: refused by the outbox, not queued, not clamped.
            let negativeStepsOffline = await #expect(throws: WorkoutError.self) {
                try await session.perform(.reportSteps(StepsReport(day: today, source: "phone", steps: -1)))
            }
            #expect(negativeStepsOffline?.code == .invalidArgument)
            #expect(negativeStepsOffline?.field == "report.steps")
            let negativeDurationQueued = #expect(throws: WorkoutError.self) {
                try outbox.enqueue(.logWorkout(Workout(type: "running", durationSeconds: -1)))
            }
            #expect(negativeDurationQueued?.field == "workout.durationSeconds")
            #expect(outbox.count == 3)

            // The server is back: the outbox drains, and no published figure goes back and forth.
            let guessedTotals = try #require(session.totals)
            let workoutsSeen = PublishedValues { session.totals?.totalWorkouts }
            let weekSeen = PublishedValues { session.week?.workouts }
            let stepsSeen = PublishedValues { session.todaysSteps }
            try await server.start()
            try await waitUntil("the outbox drained and the session is live", timeout: .seconds(40)) {
                session.pendingWrites.isEmpty && session.isLive
            }
            // What the drain publishes late shows within this time.
            try await Task.sleep(for: .milliseconds(500))
            workoutsSeen.stop()
            weekSeen.stop()
            stepsSeen.stop()
            #expect(workoutsSeen.values.allSatisfy { $0 == guessedTotals.totalWorkouts }, "total workouts seen: \(workoutsSeen.values)")
            #expect(stepsSeen.values.allSatisfy { $0 == 9000 }, "today's steps seen: \(stepsSeen.values)")
            #expect(Set(weekSeen.values).count <= 2, "the week's workouts change at most once: \(weekSeen.values)")
            #expect(session.week?.workouts == 3)
            #expect(!session.isPending(offlineRun.id))
            #expect(session.connectivity == .live)

            // The server has the writes.
            let history = try await client.workoutHistory(pageSize: 10)
            #expect(history.items.contains { $0.id == offlineRun.id })
            #expect(try await client.profile().totals.totalWorkouts == guessedTotals.totalWorkouts)
            #expect(connectivity.values.contains("live"), "connectivity seen: \(connectivity.values)")
            #expect(connectivity.values.contains { $0.hasPrefix("reconnecting") }, "connectivity seen: \(connectivity.values)")
            #expect(connectivity.values.contains { $0.hasPrefix("unreachable") }, "connectivity seen: \(connectivity.values)")
        }

        /// A member registers with an invite, then the session model resumes on that sign-in; a
        /// second launch shows the saved snapshot at once, stale, until the session is live again.
        @Test @MainActor func memberRegistersThenSessionResumesAndRelaunches() async throws {
            let server = try await TestServer("member")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("member-app")
            defer { app.remove() }
            let pinFile = app.file("known_servers")
            let snapshotPath = app.file("session.snapshot")
            let outboxPath = app.file("outbox.log")

            let invite = try await server.invite()
            let client = WorkoutClient(configuration: appConfiguration(server.address), trust: appTrust(pinFile: pinFile, confirming: nil))
            defer { client.close() }
            let signedIn = try await client.register(
                inviteCode: invite.withKey, member: NewMember(email: "member@example.com", firstName: "Member", timeZone: "UTC"),
                password: "member password 1")
            let account = "member@example.com on \(server.address)"
            let outbox = try Outbox(path: outboxPath, account: account)
            defer { outbox.close() }
            let session = WorkoutSession(client: client, storage: .init(snapshotPath: snapshotPath, account: account, outbox: outbox))
            defer { session.close() }
            try await session.resume()
            #expect(session.status == .signedIn)
            #expect(session.profile?.id == signedIn.profile.id)
            let pointsBefore = session.totals?.points ?? 0
            let delivery = try await session.perform(.logWorkout(Workout(type: "yoga", durationSeconds: 1200)))
            guard case .sent = delivery else {
                Issue.record("an online write was not sent: \(delivery)")
                return
            }
            #expect(session.week?.workouts == 1)
            #expect((session.totals?.points ?? 0) > pointsBefore)
            try await session.saveSnapshot()
            session.close()
            outbox.close()

            // Second launch: new objects on the same files and the stored token.
            let relaunchedClient = WorkoutClient(
                configuration: appConfiguration(server.address), sessionToken: client.sessionToken,
                trust: appTrust(pinFile: pinFile, confirming: false))
            defer { relaunchedClient.close() }
            let relaunchedOutbox = try Outbox(path: outboxPath, account: account)
            defer { relaunchedOutbox.close() }
            let relaunched = WorkoutSession(
                client: relaunchedClient, storage: .init(snapshotPath: snapshotPath, account: account, outbox: relaunchedOutbox))
            defer { relaunched.close() }
            #expect(relaunched.status == .signedIn)
            #expect(relaunched.isStale)
            #expect(relaunched.recentWorkouts.count == 1)
            try await relaunched.resume()
            try await relaunched.waitUntilLive(timeout: .seconds(10))
            #expect(relaunched.isStale == false)
        }
    }
}

/// A connectivity state in words, for the record of states seen.
private func connectivityName(_ connectivity: WorkoutSession.Connectivity) -> String {
    switch connectivity {
    case .idle: "idle"
    case .connecting: "connecting"
    case .live: "live"
    case .reconnecting(let error): "reconnecting(\(error.code))"
    case .unreachable(let error, _): "unreachable(\(error.code))"
    }
}
