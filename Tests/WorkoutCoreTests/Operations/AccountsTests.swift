import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The owner, invites, registration, login and its throttling, passwords and sessions.
@Suite("Accounts")
struct AccountsTests {
    static func registration(code: String, email: String, password: String = testPassword) -> Workout_V1_RegisterRequest {
        var request = Workout_V1_RegisterRequest()
        request.inviteCode = code
        request.password = password
        request.profile.email = email
        request.profile.firstName = "New"
        request.profile.timeZone = "Europe/Berlin"
        return request
    }

    static func login(_ email: String, _ password: String) -> Workout_V1_LoginRequest {
        var request = Workout_V1_LoginRequest()
        request.email = email
        request.password = password
        return request
    }

    @Test("When the owner leaves, the longest-standing admin becomes the owner; a lone owner cannot leave")
    func ownerSuccession() async throws {
        try await withHousehold { household in
            let store = household.store
            var leave = Workout_V1_DeleteAccountRequest()
            leave.password = testPassword
            await expectDomainError(.failedPrecondition) { try await store.deleteAccount(household.owner.caller, leave) }
            let first = try await household.addMember("Ada", role: .admin)
            household.clock.advance(by: 1_000)
            let second = try await household.addMember("Bea", role: .admin)
            try await store.deleteAccount(household.owner.caller, leave)
            #expect(try store.getProfile(first.caller).profile.role == .owner)
            #expect(try store.getProfile(second.caller).profile.role == .admin)
            #expect(throws: DomainError.self) {
                _ = try store.createOwner(email: "new@example.com", password: testPassword, firstName: "New", timeZone: "UTC")
            }
        }
    }

    @Test("Sessions, invites and members made in one millisecond are listed in the order of their ids, every time")
    func listingsInOneMillisecond() async throws {
        try await withHousehold { household in
            // The clock stands still: every session, invite and member below shares its millisecond.
            for device in ["tablet", "laptop", "watch", "desktop"] { _ = try await household.login(household.owner, device: device) }
            var invite = Workout_V1_CreateInviteRequest()
            invite.role = .member
            for _ in 0..<5 { _ = try await household.store.createInvite(household.owner.caller, invite) }
            for name in ["Ann", "Ben", "Cleo"] { _ = try await household.addMember(name) }

            let sessions = try household.store.listSessions(household.owner.caller).map(\.sessionID)
            #expect(sessions.count == 5)
            #expect(sessions == sessions.sorted { $0.lexicographicallyPrecedes($1) })
            var all = Workout_V1_ListInvitesRequest()
            all.includeInactive = true
            let invites = try household.store.listInvites(household.owner.caller, all).map(\.inviteID)
            #expect(invites.count == 8)
            #expect(invites == invites.sorted { $0.lexicographicallyPrecedes($1) })
            let members = try household.store.listMembers(household.owner.caller).map(\.userID)
            #expect(members.count == 4)
            #expect(members == members.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    @Test("The owner is created once; a second createOwner is FAILED_PRECONDITION")
    func ownerOnce() async throws {
        try await withHousehold { household in
            let store = household.store
            await expectDomainError(.failedPrecondition) {
                try store.createOwner(email: "second@example.com", password: testPassword, firstName: "Sec", timeZone: "UTC")
            }
            let owners = try store.listMembersLocally().filter { $0.role == .owner }
            #expect(owners.map(\.email) == ["owner@example.com"])
            #expect(household.owner.auth.profile.role == .owner)
            // The owner cannot leave while no other admin remains.
            await expectDomainError(.failedPrecondition) {
                try await store.deleteAccount(household.owner.caller, .with { $0.password = testPassword })
            }
        }
    }

    /// What becomes of an invite before someone tries to register with it.
    enum InviteFate: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case used, revoked, expired, unknown
        var testDescription: String { rawValue }
    }

    @Test("Invite codes work once and only while active: used, revoked, expired and unknown codes are UNAUTHENTICATED",
          arguments: InviteFate.allCases)
    func inviteCodes(_ fate: InviteFate) async throws {
        try await withHousehold { household in
            let store = household.store
            var create = Workout_V1_CreateInviteRequest()
            create.role = .member
            create.expiresInSeconds = 60
            create.note = "for the kid"
            var created = try await store.createInvite(household.owner.caller, create)
            #expect(created.invite.state == .active)
            #expect(created.invite.expiresAtMs == household.clock.nowMilliseconds() + 60_000)
            switch fate {
            case .used:
                // Typed sloppily (lower case, no dashes): still the same code.
                let sloppy = created.code.lowercased().replacingOccurrences(of: "-", with: "")
                let first = try await store.register(Self.registration(code: sloppy, email: "first@example.com"), source: "10.0.0.1", agent: "")
                #expect(first.profile.role == .member)
            case .revoked:
                let revoked = try await store.revokeInvite(household.owner.caller, .with { $0.inviteID = created.invite.inviteID })
                #expect(revoked.state == .revoked)
            case .expired:
                household.clock.advance(by: 60_000)
            case .unknown:
                created.code = "0000-0000-0000-0000"
            }
            await expectDomainError(.unauthenticated) {
                try await store.register(Self.registration(code: created.code, email: "second@example.com"), source: "10.0.0.2", agent: "")
            }
            #expect(try store.listMembers(household.owner.caller).contains { $0.email == "second@example.com" } == false)
            let listed = try store.listInvites(household.owner.caller, .with { $0.includeInactive = true })
            let expectedState: Workout_V1_InviteState = switch fate {
            case .used: .used
            case .revoked: .revoked
            case .expired: .expired
            case .unknown: .active
            }
            #expect(listed.map(\.state) == [expectedState])
            #expect(try store.listInvites(household.owner.caller, .init()).count == (fate == .unknown ? 1 : 0))
        }
    }

    @Test("Emails are unique case-insensitively; a refused registration does not use up the invite")
    func uniqueEmails() async throws {
        try await withHousehold { household in
            let store = household.store
            let anna = try await household.addMember("Anna")
            let code = try await store.createInvite(household.owner.caller, .with { $0.role = .member }).code
            await expectDomainError(.alreadyExists, field: "email") {
                try await store.register(Self.registration(code: code, email: "ANNA@Example.COM"), source: "", agent: "")
            }
            await expectDomainError(.alreadyExists, field: "email") {
                try await store.register(Self.registration(code: code, email: "Owner@example.com"), source: "", agent: "")
            }
            let ben = try await store.register(Self.registration(code: code, email: "Ben@Example.com"), source: "", agent: "")
            #expect(ben.profile.email == "ben@example.com")  // stored lower-cased (records.proto)
            // Login in any case.
            let again = try await store.login(Self.login("BEN@example.COM", testPassword), source: "", agent: "")
            #expect(again.caller.userID == ben.caller.userID)
            // Changing one's email to another's, in another case, is refused; to one's own in another case is fine.
            await expectDomainError(.alreadyExists, field: "email") {
                try await store.updateProfile(ben.caller, .with { $0.email = "anna@EXAMPLE.com" })
            }
            _ = try await store.updateProfile(anna.caller, .with { $0.email = "Anna.B@example.com" })
            await expectDomainError(.unauthenticated) { try await store.login(Self.login("anna@example.com", testPassword), source: "", agent: "") }
            #expect(try await store.login(Self.login("anna.b@EXAMPLE.com", testPassword), source: "", agent: "").caller.userID == anna.userID)
            // The old address is free now.
            let code2 = try await store.createInvite(household.owner.caller, .with { $0.role = .member }).code
            _ = try await store.register(Self.registration(code: code2, email: "anna@example.com"), source: "", agent: "")
        }
    }

    @Test("Repeated wrong passwords are throttled with a retry-after; after the wait the right password works")
    func loginThrottling() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Cleo")
            var retryAfter: UInt32 = 0
            var attempts = 0
            while retryAfter == 0 {
                attempts += 1
                #expect(attempts <= 30, "never throttled")
                if attempts > 30 { return }
                do {
                    _ = try await store.login(Self.login(member.email, "wrong password \(attempts)"), source: "192.168.1.50", agent: "")
                    Issue.record("a wrong password logged in")
                } catch let error as DomainError where error.code == .resourceExhausted {
                    retryAfter = error.retryAfterMilliseconds
                    #expect(retryAfter > 0)
                } catch let error as DomainError {
                    #expect(error.code == .unauthenticated)
                }
            }
            #expect(attempts > 1)
            // While refused, even the right password is refused.
            await expectDomainError(.resourceExhausted) { try await store.login(Self.login(member.email, member.password), source: "192.168.1.50", agent: "") }
            household.clock.advance(by: Int64(retryAfter))
            let signedIn = try await store.login(Self.login(member.email, member.password), source: "192.168.1.50", agent: "")
            #expect(signedIn.caller.userID == member.userID)
            // The refusal never grows without bound: ten more minutes of failures wait at most the policy's cap.
            var longest: UInt32 = 0
            for _ in 0..<40 {
                do {
                    _ = try await store.login(Self.login(member.email, "still wrong"), source: "192.168.1.51", agent: "")
                } catch let error as DomainError where error.code == .resourceExhausted {
                    longest = max(longest, error.retryAfterMilliseconds)
                    household.clock.advance(by: Int64(error.retryAfterMilliseconds))
                } catch {}
            }
            #expect(longest > 0)
            #expect(Int64(longest) <= LoginThrottle.Policy().maxBlockMilliseconds)
            household.clock.advance(by: LoginThrottle.Policy().maxBlockMilliseconds)
            #expect(try await store.login(Self.login(member.email, member.password), source: "192.168.1.51", agent: "").caller.userID == member.userID)
        }
    }

    @Test("Changing the password needs the current one and revokes the other sessions")
    func changePassword() async throws {
        try await withHousehold { household in
            let store = household.store
            let phone = try await household.addMember("Dan")
            let tablet = try await household.login(phone)
            let laptop = try await household.login(phone, device: "laptop")
            var request = Workout_V1_ChangePasswordRequest()
            request.currentPassword = "not my password"
            request.newPassword = "a new long password"
            await expectDomainError(.permissionDenied) { try await store.changePassword(phone.caller, request) }
            request.currentPassword = testPassword
            request.newPassword = "short"
            await expectDomainError(.invalidArgument, field: "new_password") { try await store.changePassword(phone.caller, request) }
            #expect(try store.listSessions(phone.caller).count == 3)
            request.newPassword = "a new long password"
            #expect(try await store.changePassword(phone.caller, request) == 2)
            for revoked in [tablet, laptop] {
                await expectDomainError(.unauthenticated) { try store.getProfile(revoked.caller) }
            }
            let sessions = try store.listSessions(phone.caller)
            #expect(sessions.count == 1)
            #expect(sessions.first?.current == true)
            await expectDomainError(.unauthenticated) { try await store.login(Self.login(phone.email, testPassword), source: "", agent: "") }
            _ = try await store.login(Self.login(phone.email, "a new long password"), source: "", agent: "")
        }
    }

    @Test("An admin resets a member's password: every session of theirs ends and the new password works")
    func resetPassword() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Eve")
            _ = try await household.login(member)
            var request = Workout_V1_ResetPasswordRequest()
            request.userID = member.userID.data
            request.newPassword = "chosen by the owner"
            #expect(try await store.resetPassword(household.owner.caller, request) == 2)
            await expectDomainError(.unauthenticated) { try store.getProfile(member.caller) }
            await expectDomainError(.unauthenticated) { try await store.login(Self.login(member.email, testPassword), source: "", agent: "") }
            _ = try await store.login(Self.login(member.email, "chosen by the owner"), source: "", agent: "")
            request.userID = newID()
            await expectDomainError(.notFound) { try await store.resetPassword(household.owner.caller, request) }
            request.userID = Data(count: 15)
            await expectDomainError(.invalidArgument, field: "user_id") { try await store.resetPassword(household.owner.caller, request) }
        }
    }

    @Test("Sessions are listed most recent first with the current one marked, and one can be revoked")
    func sessions() async throws {
        try await withHousehold { household in
            let store = household.store
            let phone = try await household.addMember("Fay")
            household.clock.advance(by: 1_000)
            let tablet = try await household.login(phone, device: "tablet")
            household.clock.advance(by: 1_000)
            let laptop = try await household.login(phone, device: "laptop")
            let listed = try store.listSessions(tablet.caller)
            #expect(listed.map(\.deviceName) == ["laptop", "tablet", "Fay's phone"])
            #expect(listed.map(\.current) == [false, true, false])
            #expect(listed.allSatisfy { $0.expiresAtMs == $0.lastUsedAtMs + HouseholdStore.Configuration().sessionLifetimeMilliseconds })
            var revoke = Workout_V1_RevokeSessionRequest()
            revoke.sessionID = laptop.caller.sessionID.data
            try await store.revokeSession(tablet.caller, revoke)
            await expectDomainError(.unauthenticated) { try store.getProfile(laptop.caller) }
            #expect(try store.listSessions(phone.caller).map(\.deviceName) == ["tablet", "Fay's phone"])
            await expectDomainError(.notFound) { try await store.revokeSession(tablet.caller, revoke) }
            revoke.sessionID = Data(count: 16)
            await expectDomainError(.invalidArgument, field: "session_id") { try await store.revokeSession(tablet.caller, revoke) }
            // Resume binds a new connection to an existing session.
            var resume = Workout_V1_ResumeRequest()
            resume.sessionToken = Data(tablet.token)
            let resumed = try await store.resume(resume)
            #expect(resumed.caller == tablet.caller)
            #expect(resumed.token == nil)
            #expect(try store.getProfile(resumed.caller).profile.userID == phone.userID.data)
            resume.sessionToken = Data(count: 31)
            await expectDomainError(.invalidArgument, field: "session_token") { try await store.resume(resume) }
        }
    }

    @Test("Registering with a weight and an initial entry id stores it as the first weight entry, measured now")
    func initialWeightEntry() async throws {
        try await withHousehold { household in
            let store = household.store
            let id = newID()
            for (email, weight, entryID) in [("w1@example.com", 81.5, id), ("w2@example.com", 0, newID()), ("w3@example.com", 77, Data())] {
                let code = try await store.createInvite(household.owner.caller, .with { $0.role = .member }).code
                var request = Self.registration(code: code, email: email)
                request.profile.weightKg = weight
                request.initialWeightEntryID = entryID
                let auth = try await store.register(request, source: "", agent: "")
                let member = Member(auth: auth, email: email, password: testPassword)
                let entries = try store.allWeights(member)
                #expect(try store.profile(member).profile.weightKg == weight)
                if email == "w1@example.com" {
                    #expect(entries.map(\.id) == [id])
                    #expect(entries.first?.weightKg == 81.5)
                    #expect(entries.first?.measuredAtMs == household.clock.nowMilliseconds())
                    #expect(entries.first?.timeZone == "Europe/Berlin")
                    #expect(auth.revision == 2)
                    #expect(try store.allChanges(member).changes.count == 2)
                    // Retrying the entry with the same content is a replay.
                    #expect(try await store.log(member, weightEntry(id: id, kg: 81.5, at: household.clock.nowMilliseconds(), zone: "Europe/Berlin")).replayed)
                } else {
                    #expect(entries.isEmpty)
                }
            }
            let code = try await store.createInvite(household.owner.caller, .with { $0.role = .member }).code
            var request = Self.registration(code: code, email: "w4@example.com")
            request.profile.weightKg = 70
            request.initialWeightEntryID = Data(count: 15)
            await expectDomainError(.invalidArgument, field: "initial_weight_entry_id") { try await store.register(request, source: "", agent: "") }
        }
    }

    @Test("Profiles are read and updated field by field, with a conditional revision")
    func profileUpdates() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Gil")
            let before = try store.profile(member)
            var update = Workout_V1_UpdateProfileRequest()
            update.age = 41
            update.heightCm = 180
            update.fitnessGoal = .gainMuscle
            update.expectedRevision = before.profile.revision
            let updated = try await store.updateProfile(member.caller, update)
            #expect(updated.profile.age == 41)
            #expect(updated.profile.heightCm == 180)
            #expect(updated.profile.fitnessGoal == .gainMuscle)
            #expect(updated.profile.firstName == "Gil")
            #expect(updated.profile.timeZone == "Europe/Berlin")
            #expect(updated.revision == before.revision + 1)
            // The same expected revision again is stale now.
            await expectDomainError(.aborted) { try await store.updateProfile(member.caller, update) }
            #expect(try store.profile(member).profile == updated.profile)
        }
    }
}
