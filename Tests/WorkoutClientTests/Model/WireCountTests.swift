import ClientTestSupport
import Foundation
import Testing
import WorkoutClient

/// A count, age or span the caller gives is refused before anything is sent when the wire cannot
/// carry it as asked: 0 means "not stated" or "the default" there, so a clamped -1 would quietly
/// become an unstated age, the server's page size or its invite lifetime.
@Suite("Counts and spans out of range are refused before sending, never clamped")
struct WireCountTests {
    /// A client of a port nobody listens on: a call that got as far as connecting would fail
    /// UNAVAILABLE, so INVALID_ARGUMENT shows the refusal came first.
    static func unreachableClient() throws -> WorkoutClient {
        WorkoutClient(configuration: .init(
            address: ServerAddress(host: "127.0.0.1", port: try unusedLoopbackPort()), connectTimeout: .seconds(2),
            reconnect: .interactive, transportSecurity: .plainTCP()))
    }

    static func expectRefusal(_ error: WorkoutError?, field: String, wireField: String, message: String) {
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        #expect(error?.field == field)
        #expect(error?.wireField == wireField)
        #expect(error?.message == message)
    }

    @Test("A page size below 1 or past the query's largest page", arguments: [-1, 0, 101])
    func pageSize(_ size: Int) async throws {
        let client = try Self.unreachableClient()
        let error = await failure { _ = try await client.workoutHistory(pageSize: size) }
        Self.expectRefusal(error, field: "pageSize", wireField: "page_size", message: "pageSize must be between 1 and 100 (got \(size))")
        let changes = await failure { _ = try await client.changes(since: 0, pageSize: -5) }
        Self.expectRefusal(changes, field: "pageSize", wireField: "page_size", message: "pageSize must be between 1 and 500 (got -5)")
    }

    @Test("A new member's age of -1 is refused, not registered as not stated")
    func newMemberAge() async throws {
        let client = try Self.unreachableClient()
        let member = NewMember(email: "kid@example.org", firstName: "Kid", age: -1)
        let error = await failure { _ = try await client.register(inviteCode: "ABCD-EFGH-JKLM", member: member, password: "long enough password") }
        Self.expectRefusal(error, field: "member.age", wireField: "profile.age", message: "member.age must be between 5 and 120 (got -1)")
    }

    @Test("An invite lifetime under a minute, negative or past 30 days", arguments: [
        (Duration.seconds(-60), "-60"), (.seconds(30), "30"), (.seconds(2_592_001), "2592001"), (.milliseconds(59_500), "60"),
    ])
    func inviteLifetime(_ lifetime: Duration, _ shown: String) async throws {
        let client = try Self.unreachableClient()
        let error = await failure { _ = try await client.createInvite(expiresIn: lifetime) }
        if shown == "60" {
            // 59.5 s rounds up to a minute: accepted, so the call goes on to connect and fails there.
            #expect(error?.code == .unavailable, "\(String(describing: error))")
        } else {
            Self.expectRefusal(
                error, field: "expiresIn", wireField: "expires_in_seconds",
                message: "expiresIn must be between 60 and 2592000 seconds (got \(shown) seconds)")
        }
    }
}
