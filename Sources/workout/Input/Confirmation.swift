import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Asking "are you sure?" before something that cannot be undone.
enum Confirmation {
    /// Returns when the user agreed: `--yes` was given, or they answered `y` on the terminal.
    ///
    /// - Parameters:
    ///   - question: The question, e.g. "Remove Bob and all their records?".
    ///   - assumeYes: `--yes` was given.
    /// - Throws: ``CLIError`` (usage) without a terminal and without `--yes`; (failure) when
    ///   the answer is not yes.
    static func require(_ question: String, assumeYes: Bool) throws(CLIError) {
        if assumeYes { return }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(.usage, "\(question) Pass --yes to confirm (standard input is not a terminal).")
        }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CLIError(.failure, "nothing was changed") }
    }
}
