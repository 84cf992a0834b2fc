import ArgumentParser
import Foundation
import WorkoutCore
import WorkoutProtocol

/// `workoutd members`: the household's members as a table.
struct Members: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the household's members: email, name, role, created.")

    @OptionGroup var options: DataDirectoryOptions

    /// A role's name as the table shows it.
    static func name(of role: Workout_V1_Role) -> String {
        switch role {
        case .owner: "owner"
        case .admin: "admin"
        default: "member"
        }
    }

    func run() throws {
        try options.withHouseholdStore { store, directory in
            // Oldest first; members made in the same millisecond in the same order every time.
            let members = try store.listMembersLocally().sorted { a, b in
                a.createdAtMs != b.createdAtMs ? a.createdAtMs < b.createdAtMs : a.userID.lexicographicallyPrecedes(b.userID)
            }
            guard !members.isEmpty else {
                print("No members yet; create the owner with `\(HowToRun.workoutd) create-owner --data-dir \(directory)`.")
                return
            }
            var rows = [["EMAIL", "NAME", "ROLE", "CREATED"]]
            for member in members {
                let name = [member.firstName, member.lastName].filter { !$0.isEmpty }.joined(separator: " ")
                rows.append([member.email, name, Self.name(of: member.role), Display.time(milliseconds: member.createdAtMs)])
            }
            print(Display.table(rows))
        }
    }
}
