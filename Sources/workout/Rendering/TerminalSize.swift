import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How wide the terminal is, for charts.
enum TerminalSize {
    /// The width when nothing says otherwise.
    static let defaultColumns = 80

    /// The terminal's width: `$COLUMNS` if it is a positive number, else the window size of
    /// standard output (`ioctl` `TIOCGWINSZ`) when it is a terminal, else 80.
    ///
    /// - Parameter environment: The process's environment.
    static func columns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let text = environment["COLUMNS"], let value = Int(text.trimmingCharacters(in: .whitespaces)), value > 0 {
            return value
        }
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return defaultColumns
    }
}
