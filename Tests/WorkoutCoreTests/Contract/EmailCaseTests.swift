import Foundation
import Storage
import Testing
import WorkoutCore
import WorkoutProtocol

/// records.proto and admin.proto: "compared case-insensitively (the server stores it
/// lower-cased)". Registration, UpdateProfile and the owner store it lower-cased; a store
/// written before, whose users hold `email` as typed, answers lower-cased too.
@Suite("Emails are stored and answered lower-cased")
struct EmailCaseTests {
    @Test("An email typed in mixed case is stored, answered and listed lower-cased")
    func registerAndUpdate() async throws {
        try await withHousehold { household in
            var invite = Workout_V1_CreateInviteRequest()
            invite.role = .member
            var register = Workout_V1_RegisterRequest()
            register.inviteCode = try await household.store.createInvite(household.owner.caller, invite).code
            register.password = testPassword
            register.profile.email = "Bob@Example.com"
            register.profile.firstName = "Bob"
            register.profile.timeZone = "UTC"
            let bob = try await household.store.register(register, source: "10.0.0.2", agent: "tests")
            #expect(bob.profile.email == "bob@example.com")
            #expect(try household.store.getProfile(bob.caller).profile.email == "bob@example.com")
            let listed = try household.store.listMembers(household.owner.caller).map(\.email)
            #expect(listed.contains("bob@example.com"))

            var update = Workout_V1_UpdateProfileRequest()
            update.email = "Robert.B@Example.COM"
            let updated = try await household.store.updateProfile(bob.caller, update)
            #expect(updated.profile.email == "robert.b@example.com")

            let stored = try household.store.store.read { txn in try txn.get(bob.caller.userID, from: household.store.tables.users.table) }
            #expect(stored?.email == "robert.b@example.com")

            // Login stays case-insensitive.
            var login = Workout_V1_LoginRequest()
            login.email = "ROBERT.b@example.com"
            login.password = testPassword
            #expect(try await household.store.login(login, source: "10.0.0.3", agent: "tests").profile.email == "robert.b@example.com")
        }
    }

    @Test("A user stored before, with the email as typed, is answered lower-cased without a migration")
    func storedBefore() async throws {
        try await withHousehold { household in
            let store = household.store
            let userID = household.owner.caller.userID
            try store.store.writeAndWait { txn in
                var user = try #require(try txn.get(userID, from: store.tables.users.table))
                user.email = "Owner@Example.com"  // as servers before stored it
                try txn.put(user, forKey: userID, in: store.tables.users)
            }
            #expect(try store.getProfile(household.owner.caller).profile.email == "owner@example.com")
            #expect(try store.listMembers(household.owner.caller).map(\.email) == ["owner@example.com"])
        }
    }
}
