import Testing
import WorkoutClient

extension HouseholdAppTests {
    /// Trust on first use, as an app with a pin file lives it: the first launch asks the member,
    /// later launches do not, a rotated key is accepted, a replaced key refused until forgotten.
    @Suite struct TrustOnFirstUseTests {
        @Test func firstRunRelaunchRotationReplacementAndForget() async throws {
            let server = try await TestServer("trust")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("trust-app")
            defer { app.remove() }
            let pinFile = app.file("known_servers")
            let address = server.address

            // First launch: the member is asked once, about the server's fingerprint, and it is pinned.
            let firstLaunch = ConfirmationLog()
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(address), trust: appTrust(pinFile: pinFile, confirming: true, log: firstLaunch))
                defer { client.close() }
                let signedIn = try await client.login(email: Owner.email, password: Owner.password)
                #expect(signedIn.profile.email == Owner.email)
            }
            #expect(firstLaunch.fingerprints == [server.fingerprint])
            #expect(try KnownServers(path: pinFile).fingerprint(for: address)?.description == server.fingerprint)
            #expect(try String(contentsOfFile: pinFile, encoding: .utf8).contains(address.description))

            // Relaunch: new objects, the same pin file; not asked (an answer would refuse).
            let relaunch = ConfirmationLog()
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(address), trust: appTrust(pinFile: pinFile, confirming: false, log: relaunch))
                defer { client.close() }
                _ = try await client.login(email: Owner.email, password: Owner.password)
            }
            #expect(relaunch.fingerprints.isEmpty)

            // Rotation: stopped, `workoutd rotate-key`, started on the same port; the pinned key vouched.
            server.stop()
            try await server.rotateKey()
            let rotated = try await server.fingerprintOnDisk()
            #expect(rotated != firstLaunch.fingerprints.first)
            try await server.start()
            #expect(server.port == address.port)
            let afterRotation = ConfirmationLog()
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(address), trust: appTrust(pinFile: pinFile, confirming: false, log: afterRotation))
                defer { client.close() }
                _ = try await client.login(email: Owner.email, password: Owner.password)
            }
            #expect(afterRotation.fingerprints.isEmpty)
            #expect(try KnownServers(path: pinFile).fingerprint(for: address)?.description == rotated)

            // Replacement: another household (a key nobody vouched for) on the same port.
            server.stop()
            let replacement = try await TestServer("trust-replacement")
            defer { replacement.shutDown() }
            try await replacement.start(port: address.port)
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(address), trust: appTrust(pinFile: pinFile, confirming: true))
                defer { client.close() }
                let error = await #expect(throws: WorkoutError.self) {
                    try await client.login(email: Owner.email, password: Owner.password)
                }
                #expect(error?.code == .failedPrecondition)
                #expect(error?.trust?.kind == .keyChanged)
                #expect(error?.trust?.pinned?.description == rotated)
                #expect(error?.trust?.presented?.description == replacement.fingerprint)
                #expect(error?.trust?.address == address)
                #expect(error.map(wordingProblems) == [])
            }

            // Forget the pin: trusted on first use again, with the replacement's key.
            try KnownServers(path: pinFile).forget(address)
            #expect(try KnownServers(path: pinFile).fingerprint(for: address) == nil)
            let afterForget = ConfirmationLog()
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(address), trust: appTrust(pinFile: pinFile, confirming: true, log: afterForget))
                defer { client.close() }
                _ = try await client.login(email: Owner.email, password: Owner.password)
            }
            #expect(afterForget.fingerprints == [replacement.fingerprint])
            #expect(try KnownServers(path: pinFile).fingerprint(for: address)?.description == replacement.fingerprint)
        }

        /// A server not pinned yet is refused without the member's yes, or with another key than expected.
        @Test func serverNotPinnedIsRefusedUnlessConfirmedOrExpected() async throws {
            let server = try await TestServer("not-pinned")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("not-pinned-app")
            defer { app.remove() }
            let pinFile = app.file("known_servers")

            // No confirm callback.
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(server.address), trust: appTrust(pinFile: pinFile, confirming: nil))
                defer { client.close() }
                let error = await #expect(throws: WorkoutError.self) {
                    try await client.login(email: Owner.email, password: Owner.password)
                }
                #expect(error?.code == .failedPrecondition)
                #expect(error?.trust?.kind == .notTrustedYet)
                #expect(error?.trust?.presented?.description == server.fingerprint)
                #expect(error.map(wordingProblems) == [])
            }
            // The member answers no.
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(server.address), trust: appTrust(pinFile: pinFile, confirming: false))
                defer { client.close() }
                let error = await #expect(throws: WorkoutError.self) {
                    try await client.login(email: Owner.email, password: Owner.password)
                }
                #expect(error?.trust?.kind == .notTrustedYet)
            }
            // A fingerprint given up front that is not the server's.
            do {
                let wrong = ServerFingerprint(publicKey: Array("not the key".utf8))
                let client = WorkoutClient(
                    configuration: appConfiguration(server.address),
                    trust: appTrust(pinFile: pinFile, confirming: nil, expected: wrong))
                defer { client.close() }
                let error = await #expect(throws: WorkoutError.self) {
                    try await client.login(email: Owner.email, password: Owner.password)
                }
                #expect(error?.trust?.kind == .unexpectedKey)
                #expect(error?.trust?.expected == wrong)
                #expect(error?.trust?.presented?.description == server.fingerprint)
                #expect(error.map(wordingProblems) == [])
            }
            #expect(try KnownServers(path: pinFile).fingerprint(for: server.address) == nil)
        }
    }
}
