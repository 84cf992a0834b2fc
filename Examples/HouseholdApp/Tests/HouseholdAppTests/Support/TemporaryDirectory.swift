import Foundation
import Testing

/// A directory of its own for one test, under the system's temporary directory, readable by
/// this user alone. Remove it when the test ends: `defer { directory.remove() }`.
struct TemporaryDirectory: Sendable {
    /// The directory's path.
    let path: String

    /// Makes a new, empty directory whose name starts with `purpose`.
    ///
    /// - Throws: When the directory cannot be made.
    init(_ purpose: String) throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("household-app-\(purpose)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The path of `name` in the directory.
    func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Deletes the directory and everything in it; a failure is recorded as an issue.
    func remove() {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            Issue.record("could not remove the temporary directory \(path): \(error)")
        }
    }
}
