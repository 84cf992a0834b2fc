import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient

/// Many callers on one connection, and a server that goes away and comes back.
@Suite("Client concurrency and reconnection, end to end")
struct ResilienceTests {
    @Test("100 tasks calling at once share one connection; every write lands once")
    func hundredTasks() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let base = Date().addingTimeInterval(-86_400)
            let entries = (0..<100).map { WeightEntry(weightKg: 60 + Double($0) / 10, measuredAt: base.addingTimeInterval(Double($0) * 60)) }
            let answers = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for (index, entry) in entries.enumerated() {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            return (index, try await client.logWeight(entry).entry.id == entry.id)
                        } else {
                            _ = try await client.logWeight(entry)
                            return (index, try await client.profile().profile.email == ownerEmail)
                        }
                    }
                }
                return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(answers.count == 100)
            #expect(answers.values.allSatisfy { $0 })
            #expect(client.connectionsOpened == 1)
            let stored = try await client.weightProgress(from: base.addingTimeInterval(-1), pageSize: 200)
            #expect(stored.items.map(\.id) == entries.map(\.id))
            client.close()
        }
    }

    @Test("a server restart mid-session: the client reconnects, resumes the session, and retries")
    func serverRestart() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let before = try await client.logWorkout(Workout(type: "run", durationSeconds: 1_200, performedAt: Date().addingTimeInterval(-7_200)))

            // Calls keep coming while the server restarts; each ends in success (retried
            // where safe) or UNAVAILABLE — never a hang, never a duplicate.
            let writer = Task {
                var written: [UUID] = []
                for index in 0..<40 {
                    let entry = WeightEntry(weightKg: 70 + Double(index) / 100, measuredAt: Date().addingTimeInterval(-Double(index) * 60 - 60))
                    if (try? await client.logWeight(entry)) != nil { written.append(entry.id) }
                    try await Task.sleep(for: .milliseconds(15))
                }
                return written
            }
            try await Task.sleep(for: .milliseconds(150))
            try await live.restart()
            let written = try await writer.value
            #expect(written.count >= 30, "idempotent writes ride out the restart")

            let after = try await client.profile()
            #expect(after.profile.email == ownerEmail, "the session was resumed on the new connection")
            #expect(after.totals.totalWorkouts == 1)
            #expect(client.connectionsOpened >= 2)
            #expect(client.sessionToken != nil)
            let stored = try await client.weightProgress(from: Date().addingTimeInterval(-86_400), pageSize: 500).items.map(\.id)
            #expect(Set(stored).isSuperset(of: written))
            #expect(stored.count == Set(stored).count)
            #expect(try await client.workoutHistory().items.map(\.id) == [before.workout.id])
            client.close()
        }
    }
}
