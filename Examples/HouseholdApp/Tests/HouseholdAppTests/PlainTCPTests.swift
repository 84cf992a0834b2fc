import Testing
import WorkoutClient

extension HouseholdAppTests {
    /// Plain TCP: a password goes only to this machine unless the app allows more, and a TLS
    /// client tells a plain server apart.
    @Suite struct PlainTCPTests {
        @Test func passwordsOverPlainTCPOnlyToLoopbackUnlessAllowed() async throws {
            let server = try await TestServer("plain", host: "0.0.0.0", transport: "plain-network")
            defer { server.shutDown() }
            try await server.start()

            // Beyond this machine (a documentation address): refused before connecting.
            do {
                let client = WorkoutClient(
                    configuration: appConfiguration(ServerAddress(host: "192.0.2.1", port: server.port), security: .plainTCP()))
                defer { client.close() }
                let error = await #expect(throws: WorkoutError.self) {
                    try await client.login(email: Owner.email, password: Owner.password)
                }
                #expect(error?.code == .failedPrecondition)
                #expect(error?.trust?.kind == .plainTCPRefused)
                #expect(error.map(wordingProblems) == [])
                #expect(client.connectionsOpened == 0)
            }
            // Loopback, without allowing anything.
            do {
                let client = WorkoutClient(configuration: appConfiguration(server.address, security: .plainTCP()))
                defer { client.close() }
                _ = try await client.login(email: Owner.email, password: Owner.password)
            }
        }

        /// Allowed (the household's own TLS proxy in front): a password goes to this machine's
        /// network address.
        @Test(.enabled(if: NetworkInterfaces.nonLoopbackIPv4Address != nil, "this machine has no non-loopback IPv4 address"))
        func passwordsOverPlainTCPBeyondLoopbackWhenAllowed() async throws {
            let server = try await TestServer("plain-allowed", host: "0.0.0.0", transport: "plain-network")
            defer { server.shutDown() }
            try await server.start()
            let host = try #require(NetworkInterfaces.nonLoopbackIPv4Address)

            let client = WorkoutClient(
                configuration: appConfiguration(ServerAddress(host: host, port: server.port), security: .plainTCP(allowsPasswords: true)))
            defer { client.close() }
            let signedIn = try await client.login(email: Owner.email, password: Owner.password)
            #expect(signedIn.profile.email == Owner.email)
        }

        @Test func tlsClientRecognisesPlainServer() async throws {
            let server = try await TestServer("plain-server", transport: "plain")
            defer { server.shutDown() }
            try await server.start()

            let client = WorkoutClient(
                configuration: appConfiguration(server.address), trust: ServerTrust(confirmNewServer: { _, _ in true }))
            defer { client.close() }
            let error = await #expect(throws: WorkoutError.self) {
                try await client.login(email: Owner.email, password: Owner.password)
            }
            #expect(error?.trust?.kind == .serverSpeaksPlainTCP)
            #expect(error.map(wordingProblems) == [])
        }
    }
}
