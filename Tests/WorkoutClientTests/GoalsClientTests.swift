import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient

/// `WorkoutClient.goals`, `setGoals` and `progress`, end to end: goals in Swift values, a
/// refusal naming the Swift property, and a day's progress with what remains.
@Suite("Client goals, end to end")
struct GoalsClientTests {
    @Test("Goals are set, read and cleared; a refusal names the Swift property; progress counts today's steps")
    func goals() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            _ = try await owner.login(email: ownerEmail, password: ownerPassword)
            let today = LocalDate.today(in: TimeZone(identifier: try await owner.profile().profile.timeZone) ?? .current)
            let change = try await owner.setGoals(Goals(energyKcal: 2_000, protein: .percentOfEnergy(20), dailySteps: 8_000, weeklyWorkouts: 2))
            #expect(!change.unchanged && change.entry?.effectiveFrom == today && change.entry?.goals.protein == .percentOfEnergy(20))
            #expect(try await owner.setGoals(Goals(dailySteps: 8_000)).unchanged)

            let read = try await owner.goals()
            #expect(read.goals.dailySteps == 8_000 && read.effectiveFrom == today && read.history.count == 1 && !read.isChild)

            _ = try await owner.reportSteps(StepsReport(day: today, source: "phone", steps: 6_000))
            let progress = try await owner.progress(on: today)
            #expect(progress.day[.dailySteps]?.actual == 6_000 && progress.day[.dailySteps]?.remaining == 2_000)
            #expect(progress.day[.protein]?.target == 100)
            #expect(progress.week.days.count == 7 && progress.week.goals.map(\.kind) == [.weeklyWorkouts])
            #expect(progress.weight.trendKg == nil)

            let low = await failure { _ = try await owner.setGoals(Goals(energyKcal: 100)) }
            #expect(low?.code == .invalidArgument && low?.field == "goals.energyKcal" && low?.wireField == "set.energy_kcal")
            #expect(low?.message.hasPrefix("goals.energyKcal must be between 800 and 10000") == true, "\(String(describing: low))")
            let negative = await failure { _ = try await owner.setGoals(Goals(dailySteps: -1)) }
            #expect(negative?.code == .invalidArgument && negative?.field == "goals.dailySteps")
            let both = await failure { _ = try await owner.setGoals(Goals(dailySteps: 9_000), clearing: [.dailySteps]) }
            #expect(both?.field == "clearing[0]", "\(String(describing: both))")

            let cleared = try await owner.setGoals(Goals(), clearing: [.dailySteps, .protein])
            #expect(cleared.entry?.goals == Goals(energyKcal: 2_000, weeklyWorkouts: 2))
        }
    }
}
