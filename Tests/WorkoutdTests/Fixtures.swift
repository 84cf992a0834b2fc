import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol

/// Opens the household store in `directory` in-process (after a `workoutd` run has exited),
/// runs `body`, closes it.
func withHousehold<R>(_ directory: String, _ body: (HouseholdStore) async throws -> R) async throws -> R {
    var configuration = HouseholdStore.Configuration()
    configuration.passwordParameters = .fastForTests
    let store = try HouseholdStore(directory: directory, configuration: configuration)
    defer { store.close() }
    return try await body(store)
}

/// Logs in through the store, as the server would for a client.
func login(_ store: HouseholdStore, email: String, password: String) async throws -> HouseholdStore.Authenticated {
    var request = Workout_V1_LoginRequest()
    request.email = email
    request.password = password
    request.deviceName = "test"
    return try await store.login(request, source: "test-\(UUID().uuidString)", agent: "WorkoutdTests")
}

/// Runs `workoutd create-owner` for `email` in `dataDirectory`, expecting success.
@discardableResult
func createOwner(
    _ dataDirectory: String, email: String = "ada@example.com", password: String = "correct horse battery",
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> WorkoutdProcess.Result {
    let result = try WorkoutdProcess.run(
        ["create-owner", "--data-dir", dataDirectory, "--email", email, "--first-name", "Ada", "--last-name", "Lovelace",
         "--time-zone", "Europe/Berlin", "--password-stdin"],
        input: password + "\n")
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    return result
}

/// The invite code in `workoutd invite`'s output.
func inviteCode(in output: String) -> String? {
    output.split(separator: "\n").first { $0.hasPrefix("Invite code: ") }
        .map { String($0.dropFirst("Invite code: ".count)) }
}

/// A protocol connection to a running `workoutd` on `port`, past the handshake and signed in as
/// the owner `createOwner` made (same default credentials).
///
/// - Returns: The connection and the owner's user id.
func signedInConnection(
    port: Int, email: String = "ada@example.com", password: String = "correct horse battery"
) throws -> (connection: TestConnection, user: UUID) {
    let connection = try TestConnection(port: port, timeout: 10)
    try connection.handshake()
    var login = Workout_V1_LoginRequest()
    login.email = email
    login.password = password
    let user = UUID(bytes: try connection.call(MethodCatalog.login, login).profile.userID)
    return (connection, user)
}
