import SystemCalls
import Dispatch
import Foundation
import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a password: from the terminal without echo, or one line from standard input for
/// scripts (`--password-stdin`). Never from an argument, where `ps` and shell history see it.
enum PasswordInput {
    /// Reads a password.
    ///
    /// - Parameters:
    ///   - fromStandardInput: read one line from standard input (`--password-stdin`) instead of
    ///     asking on the terminal.
    ///   - prompt: what to ask on the terminal, e.g. "Password for ada@example.com".
    ///   - check: checks the first entry before asking for it again (so a too-short password is
    ///     refused at once).
    /// - Returns: the password, without its line ending.
    /// - Throws: ``CommandFailure`` (bad input) when standard input is not a terminal and
    ///   `--password-stdin` was not given, when input ends before a password, or when the two
    ///   entries differ; what `check` throws.
    static func read(fromStandardInput: Bool, prompt: String, check: (String) throws -> Void) throws -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true) else {
                throw CommandFailure(.badInput, "--password-stdin: standard input ended before a password line")
            }
            let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
            try check(password)
            return password
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure(
                .badInput,
                "standard input is not a terminal, so the password cannot be asked for; pass --password-stdin to read it from standard input")
        }
        let password = try readWithoutEcho(prompt: "\(prompt): ")
        try check(password)
        let again = try readWithoutEcho(prompt: "Repeat it: ")
        guard again == password else {
            throw CommandFailure(.badInput, "the two passwords differ; nothing was changed")
        }
        return password
    }

    /// Prompts on standard error and reads one line from the terminal on standard input with
    /// echo turned off (termios), restoring the terminal afterwards, also on Ctrl-C.
    private static func readWithoutEcho(prompt: String) throws -> String {
        var original = termios()
        try SystemCall.retrying("tcgetattr", subject: "standard input") { tcgetattr(STDIN_FILENO, &original) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        FileHandle.standardError.write(Data(prompt.utf8))
        try SystemCall.retrying("tcsetattr", subject: "standard input") { tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) }
        // A Ctrl-C while echo is off must not leave the terminal silent: restore it, then exit
        // as an interrupted process would (128 + SIGINT).
        let saved = original
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            var restored = saved
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &restored)
            FileHandle.standardError.write(Data("\n".utf8))
            exit(130)
        }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
            var restored = saved
            _ = try? SystemCall.retrying("tcsetattr", subject: "standard input") { tcsetattr(STDIN_FILENO, TCSAFLUSH, &restored) }
        }
        guard let line = readLine(strippingNewline: true) else {
            throw CommandFailure(.badInput, "standard input ended before a password was entered")
        }
        return line
    }
}
