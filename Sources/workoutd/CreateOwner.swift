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
            Asks for the owner's time zone on the terminal (default: this machine's) unless --time-zone \
            gives it, then for the password without echoing it, twice; with --password-stdin it reads \
            one line from standard input instead (for scripts), and the zone is this machine's unless \
            --time-zone says otherwise. Prints the new owner's id, email and zone. Refused (exit code 3) \
            when the household has an owner already.
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
        help: ArgumentHelp(
            "An IANA time zone such as Europe/Berlin (default: asked on a terminal, offering this machine's zone, else UTC).",
            valueName: "zone"))
    var timeZone: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password as one line from standard input.")
    var passwordFromStandardInput = false

    func validate() throws {
        do throws(DomainError) {
            _ = try Bounds.email(email, field: "--email")
            try Bounds.text(firstName, field: "--first-name", bytes: 1...64)
            try Bounds.text(lastName, field: "--last-name", bytes: 0...64)
        } catch {
            throw ValidationError(error.message)
        }
        if let timeZone, !TimeZoneCatalog.isKnown(timeZone) {
            throw ValidationError(OwnerTimeZone.refusal(timeZone, named: "--time-zone"))
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
        // The zone first: asked on a terminal (where the password is asked too), else this machine's.
        let zone = try timeZone
            ?? (!passwordFromStandardInput && isatty(STDIN_FILENO) == 1
                ? OwnerTimeZone.ask(on: OwnerTimeZone.ProcessTerminal(), defaultZone: Self.machineTimeZone())
                : Self.machineTimeZone())
        let password = try PasswordInput.read(fromStandardInput: passwordFromStandardInput, prompt: "Password for \(email)") {
            try Bounds.password(new: $0, field: "password")
        }
        try options.withHouseholdStore(mustExist: false) { store, directory in
            let owner = try store.createOwner(email: email, password: password, firstName: firstName, lastName: lastName, timeZone: zone)
            print("Created the owner of the household in \(directory):")
            print("  id:        \(Display.id(owner.userID))")
            print("  email:     \(owner.email)")
            print("  time zone: \(owner.timeZone)")
        }
    }
}
