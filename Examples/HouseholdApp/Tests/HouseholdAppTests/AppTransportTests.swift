import Testing
import WorkoutClient

extension HouseholdAppTests {
    /// A transport the app supplies (``SocketTransport``): the client works over it, and refuses
    /// a TLS connection whose key it could not check.
    @Suite struct AppTransportTests {
        @Test func clientWorksOverTheAppsTransport() async throws {
            let server = try await TestServer("transport", transport: "plain")
            defer { server.shutDown() }
            try await server.start()

            let client = WorkoutClient(
                configuration: appConfiguration(server.address, security: .plainTCP()), transport: { SocketTransport() })
            defer { client.close() }
            let signedIn = try await client.login(email: Owner.email, password: Owner.password)
            #expect(signedIn.profile.email == Owner.email)
            let logged = try await client.logWorkout(Workout(type: "running", durationSeconds: 600))
            #expect(logged.totals.totalWorkouts == 1)
        }

        @Test(arguments: [SocketTransport.TLSBehaviour.skipKeyCheck, .presentMalformedCertificate])
        func tlsWithoutAKeyCheckedIsRefused(behaviour: SocketTransport.TLSBehaviour) async throws {
            let server = try await TestServer("transport-tls", transport: "plain")
            defer { server.shutDown() }
            try await server.start()

            let client = WorkoutClient(
                configuration: appConfiguration(server.address), trust: ServerTrust(confirmNewServer: { _, _ in true }),
                transport: { SocketTransport(tls: behaviour) })
            defer { client.close() }
            let error = await #expect(throws: WorkoutError.self) {
                try await client.login(email: Owner.email, password: Owner.password)
            }
            #expect(error?.code == .failedPrecondition)
        }
    }
}
