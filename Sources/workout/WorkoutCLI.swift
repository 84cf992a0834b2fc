import ArgumentParser
import Foundation
import WorkoutClient

/// `workout`: a household member's command-line client of their Workout server.
///
/// Every command prints text for people by default and JSON with `--json`. Failures end with
/// one message on standard error and an exit code of ``ExitStatus``, never a crash.
@main
struct WorkoutCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "Log workouts, meals, weight and steps on your household's Workout server, and see how you are doing.",
        discussion: """
            Sign in once with `workout login --server HOST:PORT --email YOU` (`workout servers` \
            lists the servers on the local network; NAME.local works as HOST does); the session is kept \
            in $WORKOUT_CONFIG_DIR, else $XDG_CONFIG_HOME/workout, else ~/.config/workout \
            (credentials.json, mode 0600; never the password). Times are read and shown in your \
            profile's time zone (`workout profile set --zone`), whatever this machine's (TZ); \
            when the two differ, the output's last line says so. Every command takes --json for scripts.

            Shell completion: workout --generate-completion-script bash (or zsh, fish).

            EXIT CODES:
            \(ExitStatus.documentation)
            """,
        subcommands: [
            LoginCommand.self, LogoutCommand.self, WhoamiCommand.self, RegisterCommand.self,
            LogCommand.self, TodayCommand.self, WeekCommand.self, HistoryCommand.self, WeightCommand.self,
            EditCommand.self, DeleteCommand.self, ProfileCommand.self, PasswordCommand.self, AccountCommand.self,
            AchievementsCommand.self, HouseholdCommand.self, ExportCommand.self, ImportCommand.self, WatchCommand.self,
            SessionsCommand.self, TokensCommand.self, GoalsCommand.self, FoodsCommand.self, TemplatesCommand.self, AdminCommand.self, ServersCommand.self, SyncCommand.self, StatusCommand.self,
        ]
    )

    /// Parses the arguments and runs the command. A ``CLIError`` becomes its message on
    /// standard error and its exit code; ArgumentParser's own errors (usage, `--help`) are
    /// reported by ArgumentParser, validation failures with exit code 64. An unknown command
    /// name is reported first (``UnknownCommand``), and negative numbers given as arguments
    /// reach their command (``NegativeNumbers``).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = UnknownCommand.message(for: arguments, root: Self.self) {
            Output.message("workout: \(unknown)")
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        do {
            var command: any ParsableCommand
            let arranged = NegativeNumbers.arranged(arguments)
            do {
                command = try await asyncParseAsRoot(arranged)
            } catch {
                // A negative number after a flag (`log steps --json -5`): the line once more with
                // it behind `--`; if that does not parse either, the first failure is the one said.
                let further = NegativeNumbers.arranged(arguments, afterOptions: true)
                guard further != arranged, let reparsed = try? await asyncParseAsRoot(further) else { throw error }
                command = reparsed
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIError {
            Output.message("workout: \(failure.message)")
            Foundation.exit(failure.status.rawValue)
        } catch let error as WorkoutError {
            let failure = CLIError(error, context: .init(server: "the server", action: "do that"))
            Output.message("workout: \(failure.message)")
            Foundation.exit(failure.status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
