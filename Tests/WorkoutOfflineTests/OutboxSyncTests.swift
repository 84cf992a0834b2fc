import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
@testable import WorkoutClient
@testable import WorkoutOffline

/// The outbox sending through the real client to the real server and store: folding, refusals,
/// a server that cannot be reached, and logging that falls back to the outbox.
@Suite("Outbox sync, end to end")
struct OutboxSyncTests {
    static let account = "olga@example.com on loopback"

    /// A workout performed `minutesAgo` minutes ago.
    static func workout(_ notes: String, minutesAgo: Double = 60) -> Workout {
        Workout(type: "running", durationSeconds: 1800, caloriesBurned: 250, performedAt: Date().addingTimeInterval(-minutesAgo * 60), timeZone: "Europe/Berlin", notes: notes)
    }

    /// Everything the server's change feed holds for the member, from the start.
    static func allChanges(_ client: WorkoutClient) async throws -> [Change] {
        var changes: [Change] = []
        var revision: UInt64 = 0
        for _ in 0..<100 {
            let page = try await client.changes(since: revision)
            changes += page.changes
            revision = page.revision
            if !page.hasMore { break }
        }
        return changes
    }

    /// A client of a port nobody listens on, impatient.
    static func unreachableClient() throws -> WorkoutClient {
        let port = try unusedLoopbackPort()
        return WorkoutClient(configuration: .init(
            address: ServerAddress(host: "127.0.0.1", port: port), connectTimeout: .seconds(2),
            reconnect: .interactive, transportSecurity: .plainTCP()))
    }

    @Test("Edits fold into a waiting log, and edit-then-delete of an offline record sends nothing for it")
    func folding() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            try await withTemporaryDirectory { directory in
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                var kept = Self.workout("first try")
                try outbox.enqueue(.logWorkout(kept))
                kept.notes = "edited offline"
                kept.durationSeconds = 2400
                #expect(try outbox.enqueue(.updateWorkout(kept, expectedRevision: nil)) == .folded(into: outbox.entries[0]))

                var dropped = Self.workout("never sent", minutesAgo: 30)
                try outbox.enqueue(.logWorkout(dropped))
                dropped.notes = "edited, then deleted"
                try outbox.enqueue(.updateWorkout(dropped, expectedRevision: nil))
                let cancelled = try outbox.enqueue(.deleteWorkout(dropped.id))
                guard case .cancelled(let removed) = cancelled else { Issue.record("\(cancelled)"); return }
                #expect(removed.write == .logWorkout(dropped))

                let meal = Meal(mealType: .lunch, eatenAt: Date().addingTimeInterval(-600), items: [FoodItem(name: "soup", calories: 300)])
                try outbox.enqueue(.logMeal(meal))
                #expect(try outbox.enqueue(.deleteMeal(meal.id)) == .cancelled(OutboxEntry(id: 4, write: .logMeal(meal), queuedAt: outbox.entries.last!.queuedAt)) || outbox.count == 1)
                // Two reports of the same day and source: the later replaces the earlier.
                let day = LocalDate.today(in: TimeZone(identifier: "Europe/Berlin")!)
                try outbox.enqueue(.reportSteps(StepsReport(day: day, source: "phone", steps: 4000)))
                try outbox.enqueue(.reportSteps(StepsReport(day: day, source: "phone", steps: 9000)))
                #expect(outbox.count == 2)

                let report = await outbox.sync(using: client)
                #expect(report.stoppedBy == nil)
                #expect(report.isComplete)
                #expect(report.results.count == 2)
                guard case .sent(.loggedWorkout(let logged)) = report.results.first?.outcome else {
                    Issue.record("\(report.results)")
                    return
                }
                #expect(logged.workout.notes == "edited offline")
                #expect(logged.workout.durationSeconds == 2400)
                #expect(logged.replayed == false)

                let changes = try await Self.allChanges(client)
                let mentioned = Set(changes.compactMap { change -> UUID? in
                    switch change.item {
                    case .workout(let workout): workout.id
                    case .meal(let meal): meal.id
                    case .deleted(_, let id): id
                    default: nil
                    }
                })
                #expect(mentioned == [kept.id], "nothing of the deleted workout or meal reached the server, not even a tombstone")
                let steps = try await client.summaries(from: day, to: day)
                #expect(steps.first?.steps == 9000)
            }
        }
    }

    @Test("A write refused on replay stays with its reason, later writes of the same record wait behind it, and others go on; discard and retry")
    func refusals() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            try await withTemporaryDirectory { directory in
                let path = directory + "/outbox.log"
                // Stored already; the outbox holds the same id with other content (ALREADY_EXISTS).
                let stored = Self.workout("stored")
                _ = try await client.logWorkout(stored)
                var conflicting = stored
                conflicting.notes = "other content, same id"
                // Queued by a device whose clock ran three days ahead: within a day of that clock
                // then, refused when it is sent (the typed call checks it as the server does).
                let skewed = Date().addingTimeInterval(3 * 86_400)
                let invalid = Workout(type: "running", durationSeconds: 1800, performedAt: skewed, timeZone: "Europe/Berlin")
                let fine = Self.workout("fine")
                let outbox = try Outbox(path: path, account: Self.account)
                try outbox.enqueue(.logWorkout(conflicting))
                _ = try outbox.enqueue(.logWorkout(invalid), mayHaveBeenSent: false, now: skewed)
                try outbox.enqueue(.logWorkout(fine))
                var invalidEdited = invalid
                invalidEdited.notes = "edited after the refusal"

                let report = await outbox.sync(using: client)
                #expect(report.stoppedBy == nil)
                #expect(report.results.map(\.entry.id) == [1, 2, 3])
                guard case .refused(let conflict) = report.results[0].outcome, case .refused(let validation) = report.results[1].outcome else {
                    Issue.record("\(report.results)")
                    return
                }
                #expect(conflict.code == .alreadyExists)
                #expect(validation.code == .invalidArgument)
                #expect(validation.field == "workout.performedAt")
                #expect(validation.wireField == "workout.performed_at_ms")
                guard case .sent = report.results[2].outcome else { Issue.record("\(report.results[2])"); return }

                // An edit of a refused write is not folded into it: it waits behind it.
                #expect(try outbox.enqueue(.updateWorkout(invalidEdited, expectedRevision: nil), mayHaveBeenSent: false, now: skewed) == .queued(outbox.entries.last!))
                let second = await outbox.sync(using: client)
                #expect(second.results.map(\.outcome) == [.held(behind: 2)])
                #expect(second.remaining.map(\.id) == [1, 2, 4])
                outbox.close()

                // The reasons survive reopening; discard one, retry the other.
                let reopened = try Outbox(path: path, account: Self.account)
                #expect(reopened.entries.map(\.refusal?.code) == [.alreadyExists, .invalidArgument, nil])
                #expect(reopened.entries[1].refusal?.message == validation.message)
                try reopened.discard(1)
                #expect(throws: WorkoutError.self) { try reopened.retry(4) }
                try reopened.retry(2)
                let third = await reopened.sync(using: client)
                #expect(third.results.map(\.entry.id) == [2, 4])
                #expect(third.remaining.map(\.refusal?.code) == [.invalidArgument, nil], "refused again; its edit still waits behind it")
                try reopened.discard(2)
                try reopened.discard(4)
                #expect(reopened.isEmpty)
                let history = try await client.workoutHistory(pageSize: 100)
                #expect(history.items.map(\.notes).sorted() == ["fine", "stored"])
            }
        }
    }

    @Test("A server that cannot be reached stops the sync: every write stays queued, in order, not marked as sent")
    func unreachable() async throws {
        try await withTemporaryDirectory { directory in
            let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
            let workouts = (0..<5).map { Self.workout("#\($0)") }
            for workout in workouts { try outbox.enqueue(.logWorkout(workout)) }
            let client = try Self.unreachableClient()
            let report = await outbox.sync(using: client)
            #expect(report.stoppedBy?.code == .unavailable)
            #expect(report.results.isEmpty)
            #expect(report.remaining.map(\.write) == workouts.map { .logWorkout($0) })
            #expect(report.remaining.allSatisfy { !$0.mayHaveBeenSent && $0.refusal == nil })
        }
    }

    @Test("A session the server refuses stops the sync at the first write, with its reason; the rest wait untouched")
    func unauthenticated() async throws {
        try await LiveServer.run { live in
            try await withTemporaryDirectory { directory in
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                for index in 0..<3 { try outbox.enqueue(.logWorkout(Self.workout("#\(index)"))) }
                let stranger = live.client(token: SessionToken(unchecked: Data(repeating: 7, count: 32)))
                let report = await outbox.sync(using: stranger)
                #expect(report.stoppedBy?.code == .unauthenticated)
                #expect(report.results.count == 1)
                #expect(report.remaining.map(\.refusal?.code) == [.unauthenticated, nil, nil])
                #expect(report.remaining.dropFirst().allSatisfy { !$0.mayHaveBeenSent })
            }
        }
    }

    @Test("perform sends directly when nothing waits, queues when the server cannot be reached, and sends the queue first when it can")
    func perform() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            try await withTemporaryDirectory { directory in
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                let direct = Self.workout("direct")
                guard case .sent(.loggedWorkout(let logged)) = try await client.perform(.logWorkout(direct), queueingIn: outbox) else {
                    Issue.record("not sent")
                    return
                }
                #expect(logged.workout.id == direct.id)
                #expect(outbox.isEmpty)
                // A refusal of a direct write is thrown, nothing queued.
                let invalid = Workout(type: "running", durationSeconds: 0, timeZone: "Europe/Berlin")
                await #expect(throws: WorkoutError.self) { _ = try await client.perform(.logWorkout(invalid), queueingIn: outbox) }
                #expect(outbox.isEmpty)

                let offline = try Self.unreachableClient()
                let away = Self.workout("away")
                let queued = try await offline.perform(.logWorkout(away), queueingIn: outbox)
                guard case .queued(.queued(let entry), let reason) = queued else { Issue.record("\(queued)"); return }
                #expect(reason?.code == .unavailable)
                #expect(entry.mayHaveBeenSent == false)

                let home = Self.workout("home")
                guard case .sent(.loggedWorkout(let loggedHome)) = try await client.perform(.logWorkout(home), queueingIn: outbox) else {
                    Issue.record("not sent")
                    return
                }
                #expect(loggedHome.workout.id == home.id)
                #expect(outbox.isEmpty)
                let history = try await client.workoutHistory(pageSize: 100)
                let order = history.items.sorted { $0.revision < $1.revision }.map(\.notes)
                #expect(order == ["direct", "away", "home"], "the queued write went first")
            }
        }
    }

    @Test("After a sync the file is compacted: it holds what waits, not every write it ever held")
    func compaction() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            try await withTemporaryDirectory { directory in
                let path = directory + "/outbox.log"
                let outbox = try Outbox(path: path, account: Self.account)
                let notes = String(repeating: "x", count: 900)
                for index in 0..<120 { try outbox.enqueue(.logWorkout(Self.workout("\(index) \(notes)", minutesAgo: Double(200 - index)))) }
                let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                #expect(before > 100_000)
                let report = await outbox.sync(using: client)
                #expect(report.isComplete)
                let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                #expect(after < 1_000, "compacted to its header: \(after) bytes")
                outbox.close()
                let reopened = try Outbox(path: path, account: Self.account)
                #expect(reopened.isEmpty)
                if case .queued(let entry) = try reopened.enqueue(.logWorkout(Self.workout("next"))) { #expect(entry.id == 121) }
            }
        }
    }
}
