import ArgumentParser
import WorkoutServer
import Foundation
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// `workoutd invite`: makes an invite code from the server machine; the code is printed once.
struct Invite: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make an invite code for a new member; it is shown once.",
        discussion: "The new member joins with the code from their app. It works once, until it expires.")

    /// The role a new member gets.
    enum Role: String, ExpressibleByArgument, CaseIterable {
        case member, admin

        var wire: Workout_V1_Role { self == .admin ? .admin : .member }
    }

    @OptionGroup var options: DataDirectoryOptions

    @Option(help: "The new member's role.")
    var role: Role = .member

    @Option(
        name: .customLong("expires-in"),
        help: ArgumentHelp("How long the code works: a number with d, h, m or s, from 1m to 30d (default: 7d).", valueName: "duration"),
        transform: Invite.parseLifetime)
    var expiresIn: Int?

    @Option(help: ArgumentHelp("A reminder of whom the code is for (up to 128 bytes).", valueName: "text"))
    var note: String = ""

    /// Parses `7d`, `12h`, `30m`, `3600s` or `3600` into seconds, 60...2,592,000.
    static func parseLifetime(_ text: String) throws -> Int {
        let units: [Character: Int] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var digits = Substring(trimmed)
        var unit = 1
        if let last = trimmed.last, let size = units[last] {
            digits = trimmed.dropLast()
            unit = size
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int(digits), count > 0 else {
            throw ValidationError("expected a duration such as 7d, 12h, 30m or 3600s")
        }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, (60...2_592_000).contains(seconds) else {
            throw ValidationError("an invite lives from 1m to 30d")
        }
        return seconds
    }

    func validate() throws {
        do throws(DomainError) {
            try Bounds.text(note, field: "--note", bytes: 0...128)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        try options.withHouseholdStore { store, directory in
            let created = try store.createInviteLocally(role: role.wire, expiresInSeconds: UInt32(expiresIn ?? 0), note: note)
            let lifetimeSeconds = Int((created.invite.expiresAtMs - created.invite.createdAtMs) / 1000)
            print("Invite code: \(created.code)")
            // The code with the server's key: whoever registers with it never compares fingerprints.
            if let identity = try? ServerIdentity.load(from: directory) {
                print("With key:    \(created.code)@\(identity.fingerprint.description.filter { $0 != "-" })")
            }
            print("Role:        \(role.rawValue)")
            print("Expires:     \(Display.time(milliseconds: created.invite.expiresAtMs)) (in \(Display.duration(seconds: lifetimeSeconds)))")
            if !note.isEmpty { print("Note:        \(note)") }
            print("The code works once and is not shown again.")
        }
    }
}
