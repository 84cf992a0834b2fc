import ArgumentParser
import Foundation

/// `workoutd`: the Workout household server and its admin commands.
///
/// Every subcommand works on a data directory (`--data-dir`, default `./workout-data`), with
/// settings from flags, the environment and a configuration file (``ServerSettings``). Errors end
/// with one message on standard error and an exit code (``CommandFailure``), never a crash.
@main
struct Workoutd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workoutd",
        abstract: "The Workout household server, and its admin commands that work on the data directory.",
        discussion: """
            SETTINGS (flags win over the environment, the environment over the file):
              --data-dir  WORKOUTD_DATA_DIR  "data_dir"  default ./workout-data
              --host      WORKOUTD_HOST      "host"      default 127.0.0.1
              --port      WORKOUTD_PORT      "port"      default 7420
              --config    WORKOUTD_CONFIG    a JSON object, every key optional
                                             (deploy/README.md has an example)
              A relative "data_dir" or "backup_dir" is relative to the file.
              `workoutd check-config` prints the effective settings.

            CONFIGURATION KEYS (key, default, bound):
            \(ConfigurationKey.table())

            EXIT CODES:
              0  success
              1  usage or bad input (unknown option, invalid email, short
                 password, bad configuration)
              2  store or data directory problem (cannot open or write it,
                 not a Workout store, written by a newer version)
              3  refused (an owner exists, a server is running on the data
                 directory, the target holds a store already)
            """,
        // `serve` is the default subcommand: what `workoutd` with no arguments does.
        subcommands: [
            Serve.self,
            CreateOwner.self,
            Invite.self,
            Members.self,
            ResetPassword.self,
            Backup.self,
            Restore.self,
            Repair.self,
            CheckConfig.self,
            Fingerprint.self,
            RotateKey.self,
            Catalog.self,
        ],
        defaultSubcommand: Serve.self
    )

    /// Parses the arguments, runs the chosen subcommand, and turns every error into a message on
    /// standard error and an exit code (see ``CommandFailure``); ArgumentParser's own usage and
    /// validation errors exit with 1 instead of its default 64.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot()
        } catch {
            exitAfterParsing(error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error where isArgumentParserError(error) {
            exitAfterParsing(error)
        } catch {
            let failure = CommandFailure(classifying: error)
            StandardError.print("workoutd: error: \(failure.message)")
            Foundation.exit(failure.exitCode)
        }
    }

    /// Whether `error` is ArgumentParser's: a help request, an exit code, a validation error, or
    /// one of its internal parse errors (thrown by the default `run()` of a command group).
    private static func isArgumentParserError(_ error: any Error) -> Bool {
        error is CleanExit || error is ExitCode || error is ValidationError
            || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// Reports an error of ArgumentParser's (or a help or version request) and exits.
    private static func exitAfterParsing(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        if code == .success { exit(withError: error) }
        StandardError.print(fullMessage(for: error))
        Foundation.exit(code == .validationFailure ? CommandFailure.Kind.badInput.rawValue : code.rawValue)
    }
}
