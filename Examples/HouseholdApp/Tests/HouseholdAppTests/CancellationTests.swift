import Testing
import WorkoutClient

extension HouseholdAppTests {
    /// A call waiting for the connection to open ends at once, as CANCELLED, when the app
    /// cancels its task or closes the client (a view that went away, a member who signed out).
    @Suite struct CancellationTests {
        @Test func cancellingTheCallWhileConnecting() async throws {
            let listener = try SilentListener()
            let client = connectingClient(port: listener.port)
            defer { client.close() }
            let call = Task { try await client.login(email: Owner.email, password: Owner.password) }
            // Long enough for the client to be connecting (the TCP connection is made at once).
            try await Task.sleep(for: .milliseconds(500))

            let clock = ContinuousClock()
            let cancelled = clock.now
            call.cancel()
            let result = await call.result
            // At once (it took 3.5 s before): a bound far above the milliseconds it takes.
            #expect(clock.now - cancelled < .seconds(2))
            #expect(error(of: result)?.code == .cancelled)
        }

        @Test func closingTheClientWhileConnecting() async throws {
            let listener = try SilentListener()
            let client = connectingClient(port: listener.port)
            let call = Task { try await client.login(email: Owner.email, password: Owner.password) }
            try await Task.sleep(for: .milliseconds(500))

            let clock = ContinuousClock()
            let closed = clock.now
            client.close()
            let result = await call.result
            #expect(clock.now - closed < .seconds(2))
            #expect(error(of: result)?.code == .cancelled)
        }

        /// A client of a server that never answers, which would wait 30 s to connect.
        private func connectingClient(port: Int) -> WorkoutClient {
            WorkoutClient(
                configuration: appConfiguration(ServerAddress(host: "127.0.0.1", port: port), connectTimeout: .seconds(30)),
                trust: ServerTrust(confirmNewServer: { _, _ in true }))
        }

        /// The `WorkoutError` a call failed with; an issue when it succeeded or failed otherwise.
        private func error(of result: Result<SignedIn, any Error>, sourceLocation: SourceLocation = #_sourceLocation) -> WorkoutError? {
            switch result {
            case .success:
                Issue.record("the call succeeded", sourceLocation: sourceLocation)
                return nil
            case .failure(let error as WorkoutError):
                return error
            case .failure(let error):
                Issue.record("the call failed with \(error), not a WorkoutError", sourceLocation: sourceLocation)
                return nil
            }
        }
    }
}
