import Foundation
import Logging
import TestSupport
package import WorkoutCore
package import WorkoutServer

// A real server over a real store, on an ephemeral loopback port, for end-to-end tests
// of the server and of the client library.

/// The owner every test household has.
package let ownerEmail = "owner@example.com"
package let ownerPassword = "correct horse battery"

/// Opens (or reopens) the household store in `directory`, fast to hash passwords in.
package func openHousehold(at directory: String, durable: Bool = false) throws -> HouseholdStore {
    var storeConfiguration = HouseholdStore.Configuration()
    storeConfiguration.passwordParameters = .fastForTests
    if !durable { storeConfiguration.environment.flags = [.noSync] }
    return try HouseholdStore(directory: directory, configuration: storeConfiguration)
}

/// A server for `household` on an ephemeral loopback port, configured for tests.
package func makeServer(household: HouseholdStore, configure: (inout ServerConfiguration) -> Void = { _ in }) -> WorkoutServer {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configure(&configuration)
    var logger = Logger(label: "test")
    // WORKOUT_TEST_LOG=debug shows the server's connection events while debugging a test.
    logger.logLevel = ProcessInfo.processInfo.environment["WORKOUT_TEST_LOG"] == "debug" ? .debug : .warning
    return WorkoutServer(configuration: configuration, household: household, logger: logger)
}

/// The identity of the test servers that speak TLS (one per test process: keys are made once).
package let testServerIdentity: ServerIdentity = {
    do {
        return try ServerIdentity.generate().0
    } catch {
        fatalError("cannot make the test server's identity: \(error)")
    }
}()

/// Runs `body` with a real server on an ephemeral loopback port over a fresh store.
///
/// - Parameter tls: Serve over TLS (with ``testServerIdentity``); a ``TestConnection`` to the
///   port then speaks TLS too.
package func withServer<R>(
    tls: Bool = false,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    durable: Bool = false,
    _ body: (WorkoutServer, HouseholdStore, Int) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { directory in
        let household = try openHousehold(at: directory, durable: durable)
        _ = try household.createOwner(email: ownerEmail, password: ownerPassword, firstName: "Olga", timeZone: "Europe/Berlin")
        let context = tls ? try testServerIdentity.makeTLSContext() : nil
        let server = makeServer(household: household) { configuration in
            configuration.tls = context
            configure(&configuration)
        }
        let addresses = try server.start()
        if tls { TLSPorts.insert(addresses[0].port) }
        defer { if tls { TLSPorts.remove(addresses[0].port) } }
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

