import ClientTestSupport
import Foundation
import ServerTestSupport
import Testing
import WorkoutClient

/// `watch(since:)` and `export()` as an app meets them: typed failures, totals only when they
/// changed, and a cancelled reader told so.
@Suite("Streams, end to end")
struct StreamsTests {
    /// Reads `stream` to its end; the signature proves the stream fails with `WorkoutError` only.
    private func drain<Element>(_ stream: WorkoutStream<Element>) async throws(WorkoutError) -> [Element] {
        var elements: [Element] = []
        for try await element in stream { elements.append(element) }
        return elements
    }

    @Test("a watch the server refuses and a finished export end as typed WorkoutErrors and nil")
    func typedFailures() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            let signedIn = try await client.login(email: ownerEmail, password: ownerPassword)
            do throws(WorkoutError) {
                _ = try await drain(client.watch(since: signedIn.revision + 1_000))
                Issue.record("a watch from beyond the member's revision did not fail")
            } catch {
                #expect(error.code == .outOfRange)
                #expect(error.field == "since")
                #expect(error.wireField == "since_revision")
            }
            let chunks = try await drain(client.export())
            #expect(chunks.first?.profile?.email == ownerEmail)
            client.close()
        }
    }

    @Test("watch events carry totals in the first event and then only when they changed")
    func totalsOnlyWhenChanged() async throws {
        try await LiveServer.run { live in
            let phone = live.client(device: "phone")
            let signedIn = try await phone.login(email: ownerEmail, password: ownerPassword)
            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            var events = laptop.watch(since: signedIn.revision).makeAsyncIterator()
            let first = try #require(try await events.next())
            #expect(first.caughtUp)
            #expect(first.totals == signedIn.totals)

            // A meal leaves the totals as they were: its event has none.
            let meal = try await phone.logMeal(Meal(mealType: .lunch, eatenAt: Date(), name: "soup", items: [FoodItem(name: "soup", calories: 250)]))
            let mealEvent = try #require(try await events.next())
            #expect(mealEvent.changes.map(\.revision) == [meal.meal.revision])
            #expect(mealEvent.totals == nil)

            // A workout changes them: its event carries the new ones.
            let workout = try await phone.logWorkout(Workout(type: "running", durationSeconds: 1_800, caloriesBurned: 300))
            let workoutEvent = try #require(try await events.next())
            #expect(workoutEvent.changes.contains { $0.revision == workout.workout.revision })
            #expect(workoutEvent.totals == workout.totals)
            #expect(workoutEvent.totals?.totalWorkouts == 1)
            phone.close()
            laptop.close()
        }
    }

    @Test("cancelling the task that reads a watch ends it with CANCELLED")
    func cancellingTheReader() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            let signedIn = try await client.login(email: ownerEmail, password: ownerPassword)
            let (caughtUp, caughtUpSignal) = AsyncStream.makeStream(of: Void.self)
            let reader = Task { () -> WorkoutError? in
                do throws(WorkoutError) {
                    for try await event in client.watch(since: signedIn.revision) where event.caughtUp {
                        caughtUpSignal.yield()
                    }
                    return nil
                } catch {
                    return error
                }
            }
            var signals = caughtUp.makeAsyncIterator()
            _ = await signals.next()
            reader.cancel()
            let ended = await reader.value
            #expect(ended?.code == .cancelled)
            // The client is unharmed: the next call goes through.
            #expect(try await client.profile().profile.email == ownerEmail)
            client.close()
        }
    }

    @Test("breaking out of a watch ends it quietly and frees its call")
    func breakingOut() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            let signedIn = try await client.login(email: ownerEmail, password: ownerPassword)
            for _ in 0..<3 {
                var seen = 0
                for try await event in client.watch(since: signedIn.revision) {
                    seen += 1
                    if event.caughtUp { break }
                }
                #expect(seen == 1)
            }
            #expect(try await client.profile().profile.email == ownerEmail)
            client.close()
        }
    }
}
