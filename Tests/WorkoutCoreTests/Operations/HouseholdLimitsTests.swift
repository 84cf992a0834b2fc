import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Issue 15: the answers that list things whole (a day's steps sources, the members, the
/// invites) fit the smallest frame because the store bounds how many of them it keeps.
@Suite("Bounded storage for answers listed whole")
struct HouseholdLimitsTests {
    @Test("A day takes steps from at most 16 sources; the 17th is refused, the others keep reporting")
    func stepsSources() async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Max")
            let day = LocalDay("2026-06-01")
            for source in 0..<HouseholdStore.maxStepsSourcesPerDay {
                try await household.store.report(member, stepsReport(day: day, source: "device \(source)", steps: 1_000, reportedAt: householdStart))
            }
            await expectDomainError(.invalidArgument, field: "report.source") {
                try await household.store.report(member, stepsReport(day: day, source: "device 16", steps: 9_000, reportedAt: householdStart))
            }
            let again = try await household.store.report(member, stepsReport(day: day, source: "device 3", steps: 7_000, reportedAt: householdStart + 1))
            #expect(again.applied)
            #expect(again.day.sources.count == 16)
            #expect(again.day.steps == 7_000)
            // Another day has room of its own.
            let next = try await household.store.report(member, stepsReport(day: day.adding(days: -1), source: "device 16", steps: 10, reportedAt: householdStart))
            #expect(next.applied)
            // The largest day fits the smallest frame.
            #expect((try again.serializedBytes() as [UInt8]).count < 4_096)
        }
    }

    @Test("Register and local creation stop at the household's most members; the invite stays usable")
    func members() async throws {
        try await withHousehold(configure: { $0.maxMembers = 3 }) { household in
            _ = try await household.addMember("Ann")
            _ = try await household.addMember("Ben")
            let code = try await household.store.createInvite(household.owner.caller, .with { $0.role = .member }).code
            var request = Workout_V1_RegisterRequest()
            request.inviteCode = code
            request.password = testPassword
            request.profile.email = "cy@example.com"
            request.profile.firstName = "Cy"
            request.profile.timeZone = "UTC"
            await expectDomainError(.resourceExhausted) {
                try await household.store.register(request, source: "10.0.0.3", agent: "tests")
            }
            var profile = Workout_V1_Profile()
            profile.email = "dee@example.com"
            profile.firstName = "Dee"
            profile.timeZone = "UTC"
            await expectDomainError(.resourceExhausted) {
                try household.store.createMembersLocally([NewMember(profile: profile, password: testPassword)])
            }
            #expect(try household.store.listMembers(household.owner.caller).count == 3)
            // Once a member leaves, the same invite works.
            let ben = try #require(try household.store.listMembers(household.owner.caller).first { $0.email == "ben@example.com" })
            try await household.store.removeMember(household.owner.caller, .with { $0.userID = ben.userID })
            _ = try await household.store.register(request, source: "10.0.0.3", agent: "tests")
            #expect(try household.store.listMembers(household.owner.caller).count == 3)
        }
    }

    @Test("At most 100 invites are active, and of the inactive ones the newest 100 are kept")
    func invites() async throws {
        try await withHousehold { household in
            let owner = household.owner.caller
            var made: [Workout_V1_Invite] = []
            // Invites as large as they get: a note of 128 bytes.
            let note = String(repeating: "n", count: 128)
            for _ in 0..<HouseholdStore.maxActiveInvites {
                household.clock.advance(by: 1)
                made.append(try await household.store.createInvite(owner, .with { $0.role = .member; $0.note = note }).invite)
            }
            await expectDomainError(.resourceExhausted) {
                try await household.store.createInvite(owner, .with { $0.role = .member })
            }
            await expectDomainError(.resourceExhausted) {
                try household.store.createInviteLocally(role: .member)
            }
            // Revoking every one makes them inactive; new invites push the oldest out.
            for invite in made {
                household.clock.advance(by: 1)
                _ = try await household.store.revokeInvite(owner, .with { $0.inviteID = invite.inviteID })
            }
            for _ in 0..<3 {
                household.clock.advance(by: 1)
                _ = try await household.store.createInvite(owner, .with { $0.role = .member; $0.note = note })
            }
            let all = try household.store.listInvites(owner, .with { $0.includeInactive = true })
            #expect(all.filter { $0.state == .active }.count == 3)
            #expect(all.filter { $0.state != .active }.count == HouseholdStore.maxInactiveInvites - 1)
            // The oldest were forgotten.
            let kept = Set(all.map(\.inviteID))
            #expect(!kept.contains(made[0].inviteID))
            #expect(kept.contains(made[99].inviteID))
            var response = Workout_V1_ListInvitesResponse()
            response.invites = all
            #expect((try response.serializedBytes() as [UInt8]).count < 65_536)
        }
    }

    @Test("A full household of the largest profiles: ListMembers and HouseholdView fit the smallest frame")
    func fullHousehold() async throws {
        try await withHousehold { household in
            let members = (1..<100).map { index in
                var profile = Workout_V1_Profile()
                profile.email = String(format: "%03d", index) + String(repeating: "e", count: 239) + "@example.com"
                profile.firstName = String(repeating: "F", count: 64)
                profile.lastName = String(repeating: "L", count: 64)
                profile.displayName = String(repeating: "D", count: 64)
                profile.timeZone = "Europe/Berlin"
                profile.shareWithHousehold = true
                return NewMember(profile: profile, password: testPassword, role: .admin)
            }
            #expect(members[0].profile.email.utf8.count == 254)
            _ = try household.store.createMembersLocally(members)
            let list = try Workout_V1_ListMembersResponse.with { $0.members = try household.store.listMembers(household.owner.caller) }
            #expect(list.members.count == 100)
            #expect((try list.serializedBytes() as [UInt8]).count < 65_536)
            let view = try Workout_V1_HouseholdViewResponse.with { $0.members = try household.store.householdView(household.owner.caller) }
            #expect(view.members.count == 100)
            #expect((try view.serializedBytes() as [UInt8]).count < 65_536)
        }
    }
}
