import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file that keeps ``Credentials`` between runs: `credentials.json` in the user's
/// configuration directory, readable by its owner alone.
///
/// The directory is `$WORKOUT_CONFIG_DIR` if set, else `$XDG_CONFIG_HOME/workout`, else
/// `~/.config/workout`. It is created with mode 0700; the file is written to a temporary
/// file with mode 0600 in the same directory, flushed, and renamed over the old one, so a
/// crash leaves the old credentials or the new ones, never half a file, and the token is
/// never readable by others, not even for a moment.
struct CredentialStore: Sendable {
    /// The configuration directory.
    let directory: String

    /// The credentials file.
    var path: String { directory + "/credentials.json" }

    /// A store in `directory`.
    init(directory: String) {
        self.directory = directory
    }

    /// The store in the configuration directory the environment names.
    ///
    /// - Parameter environment: The process's environment.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directory: Self.directory(environment: environment))
    }

    /// The configuration directory: `$WORKOUT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/workout`,
    /// else `$HOME/.config/workout` (empty variables count as unset; a relative
    /// `XDG_CONFIG_HOME` is ignored, as the XDG specification says).
    ///
    /// - Parameter environment: The process's environment.
    /// - Returns: The directory's path.
    static func directory(environment: [String: String]) -> String {
        if let explicit = environment["WORKOUT_CONFIG_DIR"], !explicit.isEmpty {
            return explicit
        }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/workout"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/workout"
    }

    /// The stored credentials, or `nil` when there are none.
    ///
    /// - Throws: ``CLIError`` when the file exists but cannot be read or is not valid.
    func load() throws(CLIError) -> Credentials? {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        } catch {
            throw CLIError(.failure, "cannot read \(path): \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Credentials.self, from: data)
        } catch {
            throw CLIError(.failure, "\(path) is damaged; delete it and run `workout login` again")
        }
    }

    /// Stores `credentials`, replacing what was there (atomically, mode 0600).
    ///
    /// - Throws: ``CLIError`` when the directory or the file cannot be written.
    func save(_ credentials: Credentials) throws(CLIError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do {
            data = try encoder.encode(credentials) + Data("\n".utf8)
        } catch {
            throw CLIError(.failure, "cannot encode the credentials: \(error)")
        }
        try makeDirectory()
        do throws(SystemCallError) {
            try SystemCall.replaceFile(at: path, with: Array(data), permissions: 0o600)
        } catch {
            throw CLIError(.failure, "cannot write \(path): \(error)")
        }
    }

    /// Deletes the stored credentials.
    ///
    /// - Returns: Whether there were any.
    /// - Throws: ``CLIError`` when the file exists but cannot be deleted.
    @discardableResult
    func delete() throws(CLIError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure("delete", path)
    }

    /// Creates the directory (and its parents) if needed; the directory itself gets 0700.
    private func makeDirectory() throws(CLIError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CLIError(.failure, "\(directory) is not a directory; set WORKOUT_CONFIG_DIR to another place")
            }
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        do {
            if !parent.isEmpty {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
        } catch {
            throw CLIError(.failure, "cannot create \(parent): \(error.localizedDescription)")
        }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw failure("create", directory) }
        _ = chmod(directory, 0o700)
    }

    /// A ``CLIError`` for the failed system call `operation` on `path`, from `errno`.
    private func failure(_ operation: String, _ path: String) -> CLIError {
        CLIError(.failure, "cannot \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
