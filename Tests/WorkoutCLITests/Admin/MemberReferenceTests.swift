import Foundation
import Testing
import WorkoutClient
@testable import workout

/// Naming a member by ID or email.
@Suite("Member references")
struct MemberReferenceTests {
    static let bob = MemberInfo(
        id: UUID(uuidString: "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7B")!, email: "Bob@Example.com", firstName: "Bob", createdAt: Date())
    static let ada = MemberInfo(id: UUID(), email: "ada@example.com", firstName: "Ada", role: .owner, createdAt: Date())

    @Test("By ID (any case) or by email (any case)", arguments: [
        "0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b", "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7B", "bob@example.com", " BOB@EXAMPLE.COM ",
    ])
    func found(reference: String) throws {
        #expect(try MemberReference.resolve(reference, in: [Self.ada, Self.bob]) == Self.bob)
    }

    @Test("Nobody matching is NOT_FOUND's exit code")
    func notFound() {
        #expect {
            try MemberReference.resolve("eve@example.com", in: [Self.ada, Self.bob])
        } throws: { error in
            (error as? CLIError)?.status == .notFound
        }
    }
}
