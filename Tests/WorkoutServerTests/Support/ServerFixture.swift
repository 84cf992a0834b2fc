import Foundation
import Logging
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutServer

/// The owner every test household has.
let ownerEmail = "owner@example.com"
let ownerPassword = "correct horse battery"

/// Runs `body` with a real server on an ephemeral loopback port over a fresh store.
func withServer<R>(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    durable: Bool = false,
    _ body: (WorkoutServer, HouseholdStore, Int) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { directory in
        var storeConfiguration = HouseholdStore.Configuration()
        storeConfiguration.passwordParameters = .fastForTests
        if !durable { storeConfiguration.environment.flags = [.noSync] }
        let household = try HouseholdStore(directory: directory, configuration: storeConfiguration)
        _ = try household.createOwner(email: ownerEmail, password: ownerPassword, firstName: "Olga", timeZone: "Europe/Berlin")
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configure(&configuration)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let server = WorkoutServer(configuration: configuration, household: household, logger: logger)
        let addresses = try server.start()
        do {
            let result = try await body(server, household, addresses[0].port)
            await server.shutdown(gracePeriod: .seconds(2))
            household.close()
            return result
        } catch {
            await server.shutdown(gracePeriod: .seconds(2))
            household.close()
            throw error
        }
    }
}

extension TestConnection {
    /// A connection that has done the handshake and logged in as the owner.
    static func owner(port: Int) throws -> TestConnection {
        let connection = try TestConnection(port: port)
        try connection.handshake()
        var login = Workout_V1_LoginRequest()
        login.email = ownerEmail
        login.password = ownerPassword
        _ = try connection.call(MethodCatalog.login, login)
        return connection
    }
}
