import ArgumentParser
import Foundation
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// `workoutd create-owner`: makes the household's first account, its owner, on the server
/// machine itself (having the data directory is the trust). Creates the store if needed.
struct CreateOwner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-owner",
        abstract: "Create the household's owner account (once, on the server machine).",
        discussion: """
            Asks for the password on the terminal without echoing it, twice; with --password-stdin it \
            reads one line from standard input instead (for scripts). Prints the new owner's id and \
            email. Refused (exit code 3) when the household has an owner already.
            """)

    @OptionGroup var options: DataDirectoryOptions

    @Option(help: "The owner's email address (how they log in).")
    var email: String

    @Option(name: .customLong("first-name"), help: "The owner's first name.")
    var firstName: String

    @Option(name: .customLong("last-name"), help: "The owner's last name.")
    var lastName: String = ""

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("An IANA time zone such as Europe/Berlin (default: this machine's zone, else UTC).", valueName: "zone"))
    var timeZone: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password as one line from standard input.")
    var passwordFromStandardInput = false

    func validate() throws {
        do throws(DomainError) {
            _ = try Bounds.email(email, field: "--email")
            try Bounds.text(firstName, field: "--first-name", bytes: 1...64)
            try Bounds.text(lastName, field: "--last-name", bytes: 0...64)
            if let timeZone { _ = try TimeZoneCatalog.zone(named: timeZone, field: "--time-zone") }
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// This machine's time zone if the server accepts its name, else UTC.
    static func machineTimeZone() -> String {
        let name = TimeZone.current.identifier
        return (try? TimeZoneCatalog.zone(named: name, field: "time_zone")) != nil ? name : "UTC"
    }

    func run() throws {
        // Refuse before asking for a password, and create nothing until the password is known.
        if try options.inspectDataDirectory().holdsStore {
            try options.withHouseholdStore { store, _ in
                if let owner = try store.listMembersLocally().first(where: { $0.role == .owner }) {
                    throw CommandFailure(
                        .refused,
                        "this household has an owner already (\(owner.email)); to set their password use `workoutd reset-password --email \(owner.email)`")
                }
            }
        }
        let password = try PasswordInput.read(fromStandardInput: passwordFromStandardInput, prompt: "Password for \(email)") {
            try Bounds.password(new: $0, field: "password")
        }
        let zone = timeZone ?? Self.machineTimeZone()
        try options.withHouseholdStore(mustExist: false) { store, directory in
            let owner = try store.createOwner(email: email, password: password, firstName: firstName, lastName: lastName, timeZone: zone)
            print("Created the owner of the household in \(directory):")
            print("  id:        \(Display.id(owner.userID))")
            print("  email:     \(owner.email)")
            print("  time zone: \(owner.timeZone)")
        }
    }
}
