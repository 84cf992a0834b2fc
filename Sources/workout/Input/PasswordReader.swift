import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a password: typed on the terminal with echo off (termios), or one line of
/// standard input for scripts (`--password-stdin`). Never an argument, which `ps` and the
/// shell's history would show.
enum PasswordReader {
    /// Reads a password.
    ///
    /// - Parameters:
    ///   - fromStandardInput: Read one line of standard input (`--password-stdin`).
    ///   - prompt: What to ask on the terminal, e.g. "Password for ada@example.com".
    ///   - confirm: Ask twice on the terminal and insist that both agree (a new password).
    /// - Returns: The password, without its line ending.
    /// - Throws: ``CLIError`` (usage) when input ends first, when there is no terminal and
    ///   no `--password-stdin`, or when the two entries differ.
    static func read(fromStandardInput: Bool, prompt: String, confirm: Bool = false) throws(CLIError) -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true) else {
                throw CLIError(.usage, "--password-stdin: standard input ended before a password line")
            }
            return line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(.usage, "standard input is not a terminal, so the password cannot be asked for; pass --password-stdin to read it from standard input")
        }
        let password = try readSilently(prompt: "\(prompt): ")
        if confirm {
            let again = try readSilently(prompt: "Again, to be sure: ")
            guard again == password else { throw CLIError(.usage, "the two passwords differ; nothing was changed") }
        }
        return password
    }

    /// Prompts on standard error and reads a line from the terminal with echo off (the
    /// newline still echoes), restoring the terminal's settings afterwards, also after Ctrl-C.
    private static func readSilently(prompt: String) throws(CLIError) -> String {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            throw CLIError(.usage, "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        FileHandle.standardError.write(Data(prompt.utf8))
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0 else {
            throw CLIError(.usage, "cannot turn off the terminal's echo: \(String(cString: strerror(errno)))")
        }
        // Ctrl-C while echo is off: put the terminal back before dying as SIGINT would (130).
        let original = saved
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            var restore = original
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore)
            FileHandle.standardError.write(Data("\n".utf8))
            _exit(130)
        }
        interrupt.resume()
        defer {
            var restore = original
            while tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore) != 0 && errno == EINTR {}
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
        guard let line = readLine(strippingNewline: true) else {
            throw CLIError(.usage, "the terminal's input ended before a password was typed")
        }
        return line
    }
}
