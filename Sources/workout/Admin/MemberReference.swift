import Foundation
import WorkoutClient

/// A member named on the command line by ID or by email (`workout admin remove-member`,
/// `reset-password`).
enum MemberReference {
    /// The member `reference` names.
    ///
    /// - Parameters:
    ///   - reference: A member's ID (a UUID) or email (compared without regard to case).
    ///   - members: The household's members.
    /// - Returns: The member.
    /// - Throws: ``CLIError`` `notFound` when nobody matches.
    static func resolve(_ reference: String, in members: [MemberInfo]) throws(CLIError) -> MemberInfo {
        let text = reference.trimmingCharacters(in: .whitespaces)
        if let id = UUID(uuidString: text), let member = members.first(where: { $0.id == id }) {
            return member
        }
        if let member = members.first(where: { $0.email.lowercased() == text.lowercased() }) {
            return member
        }
        throw CLIError(.notFound, "not found: no member with the ID or email \"\(text)\" (see `workout admin members`)")
    }
}
