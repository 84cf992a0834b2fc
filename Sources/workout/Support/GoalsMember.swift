import Foundation
import WorkoutClient

/// Whose goals a `workout goals` command is about: one's own, or (`--member`, for an admin) a
/// member under 18, named by ID or email as `workout admin` commands name members.
enum GoalsMember {
    /// The member's id for `reference`, or `nil` for one's own goals.
    ///
    /// - Throws: ``CLIError``: not found when no member matches; "only household admins" for a
    ///   caller who may not list the members.
    static func resolve(_ reference: String?, session: SignedInSession) async throws(CLIError) -> UUID? {
        guard let reference else { return nil }
        let members = try await session.run("see or set another member's goals") { client throws(WorkoutError) in try await client.members() }
        return try MemberReference.resolve(reference, in: members).id
    }
}
