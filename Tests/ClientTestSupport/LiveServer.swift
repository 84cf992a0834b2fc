import Foundation
import ServerTestSupport
import TestSupport
package import WorkoutClient
package import WorkoutCore
package import WorkoutServer

/// A real server over a real store on a loopback port, for the client's end-to-end tests;
/// it can be restarted on the same port, over the same store, mid-test.
///
/// Safe to send between threads because: `server` is replaced only by `restart()`, which a
/// test calls from one task while no other task reads it.
package final class LiveServer: @unchecked Sendable {
    package let household: HouseholdStore
    package let port: Int
    package private(set) var server: WorkoutServer

    private init(household: HouseholdStore, server: WorkoutServer, port: Int) {
        self.household = household
        self.server = server
        self.port = port
    }

    /// Runs `body` with a fresh household (an owner, `ownerEmail`) served on loopback.
    package static func run<R>(_ body: (LiveServer) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { directory in
            let household = try openHousehold(at: directory)
            _ = try household.createOwner(email: ownerEmail, password: ownerPassword, firstName: "Olga", timeZone: "Europe/Berlin")
            let server = makeServer(household: household)
            let port = try server.start()[0].port
            let live = LiveServer(household: household, server: server, port: port)
            do {
                let result = try await body(live)
                await live.server.shutdown(gracePeriod: .seconds(2))
                household.close()
                return result
            } catch {
                await live.server.shutdown(gracePeriod: .seconds(2))
                household.close()
                throw error
            }
        }
    }

    /// The address clients connect to.
    package var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: port) }

    /// A client of this server (patient enough to ride out a restart).
    package func client(device: String = "test device", token: SessionToken? = nil, reconnect: ReconnectPolicy? = nil) -> WorkoutClient {
        WorkoutClient(
            configuration: .init(
                address: address, deviceName: device, callTimeout: .seconds(20),
                reconnect: reconnect ?? ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(500), maximumAttempts: 12),
                transportSecurity: .plainTCP()),
            sessionToken: token)
    }

    /// Stops the server gracefully (GOAWAY to every connection) and starts a new one on the
    /// same port over the same store, as a restart of `workoutd` would.
    package func restart(downtime: Duration = .milliseconds(300)) async throws {
        await stop()
        try await Task.sleep(for: downtime)
        try start()
    }

    /// Stops the server gracefully; the store stays open. Clients see a server that cannot be
    /// reached until ``start()``.
    package func stop() async {
        await server.shutdown(gracePeriod: .seconds(2))
    }

    /// Starts a new server on the same port over the same store (after ``stop()``).
    package func start() throws {
        let port = port
        server = makeServer(household: household) { $0.port = port }
        _ = try server.start()
    }
}
