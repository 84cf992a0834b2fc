import Testing
import WorkoutClient

extension HouseholdAppTests {
    /// A new member's device joins with an invite in each of its forms, and its fingerprint
    /// decides which server is trusted: no fingerprint to compare by eye.
    @Suite struct InviteTests {
        /// Parsed first (as `InviteCode`'s documentation shows): the client expects the invite's
        /// fingerprint, and registers with the code alone.
        @Test func parsedInviteGivesTheExpectedFingerprint() async throws {
            let server = try await TestServer("invite-parsed")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("invite-parsed-app")
            defer { app.remove() }
            let pinFile = app.file("known_servers")

            let invite = try #require(InviteCode(try await server.invite().withKey))
            #expect(invite.serverFingerprint?.description == server.fingerprint)
            let client = WorkoutClient(
                configuration: appConfiguration(server.address),
                trust: appTrust(pinFile: pinFile, confirming: nil, expected: invite.serverFingerprint))
            defer { client.close() }
            let signedIn = try await client.register(
                inviteCode: invite.code, member: NewMember(email: "kid@example.com", firstName: "Kid"),
                password: "another long password")
            #expect(signedIn.profile.email == "kid@example.com")
            #expect(try KnownServers(path: pinFile).fingerprint(for: server.address)?.description == server.fingerprint)
        }

        /// The whole text `CODE@FINGERPRINT`, as typed or scanned, pins a new server on a client
        /// that expects no fingerprint and asks nobody.
        @Test func wholeInviteTextPinsNewServer() async throws {
            let server = try await TestServer("invite-whole")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("invite-whole-app")
            defer { app.remove() }
            let pinFile = app.file("known_servers")

            let invite = try await server.invite()
            let client = WorkoutClient(
                configuration: appConfiguration(server.address), trust: appTrust(pinFile: pinFile, confirming: nil))
            defer { client.close() }
            let signedIn = try await client.register(
                inviteCode: invite.withKey, member: NewMember(email: "kid2@example.com", firstName: "Kid"),
                password: "another long password")
            #expect(signedIn.profile.email == "kid2@example.com")
            #expect(try KnownServers(path: pinFile).fingerprint(for: server.address)?.description == server.fingerprint)
        }

        /// An invite naming another key than the server's is refused, nothing pinned, even by an
        /// app that would confirm a new server.
        @Test func inviteNamingAnotherKeyIsRefused() async throws {
            let server = try await TestServer("invite-other-key")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("invite-other-key-app")
            defer { app.remove() }
            let pinFile = app.file("known_servers")

            let invite = try await server.invite()
            let otherKey = ServerFingerprint(publicKey: Array("another server".utf8))
            let asked = ConfirmationLog()
            let client = WorkoutClient(
                configuration: appConfiguration(server.address), trust: appTrust(pinFile: pinFile, confirming: true, log: asked))
            defer { client.close() }
            let error = await #expect(throws: WorkoutError.self) {
                try await client.register(
                    inviteCode: "\(invite.code)@\(otherKey)", member: NewMember(email: "kid3@example.com", firstName: "Kid"),
                    password: "another long password")
            }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.trust?.kind == .inviteKeyMismatch)
            #expect(error?.trust?.expected == otherKey)
            #expect(error?.trust?.presented?.description == server.fingerprint)
            #expect(error.map(wordingProblems) == [])
            #expect(asked.fingerprints.isEmpty)
            #expect(try KnownServers(path: pinFile).fingerprint(for: server.address) == nil)
        }

        /// A part after `@` that is no fingerprint is refused before anything connects.
        @Test func malformedFingerprintIsRefusedBeforeConnecting() async throws {
            let server = try await TestServer("invite-malformed")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("invite-malformed-app")
            defer { app.remove() }

            let text = "\(try await server.invite().code)@not-a-fingerprint"
            #expect(InviteCode(text) == nil)
            let client = WorkoutClient(
                configuration: appConfiguration(server.address),
                trust: appTrust(pinFile: app.file("known_servers"), confirming: true))
            defer { client.close() }
            let error = await #expect(throws: WorkoutError.self) {
                try await client.register(
                    inviteCode: text, member: NewMember(email: "x@example.com", firstName: "X"), password: "long enough password")
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.trust?.kind == .inviteFingerprintInvalid)
            #expect(error?.trust?.text == "not-a-fingerprint")
            #expect(error.map(wordingProblems) == [])
            #expect(client.connectionsOpened == 0)
        }
    }
}
