import SystemCalls
import Foundation
import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps root from writing into a data directory that belongs to the service user.
///
/// On an installed server the data directory is the `workoutd` user's (mode 0700). A command
/// run as root there (`sudo workoutd create-owner …`) would create files only root can open,
/// and the server would then fail to start; so root is asked to run it as the owner instead.
enum DataDirectoryOwner {
    /// Throws when this process runs as root and `directory` exists and belongs to another user.
    /// Wraps `stat` and `getpwuid`.
    ///
    /// - Throws: ``CommandFailure`` (refused) naming the owner and the command to use.
    static func check(_ directory: String) throws {
        guard let name = foreignOwner(of: directory) else { return }
        throw CommandFailure(
            .refused,
            "the data directory \(directory) belongs to the user \(name); run the command as that user (sudo -u \(name) workoutd …, or runuser -u \(name) -- workoutd …) so the files it writes stay readable by the server")
    }

    /// The name of the user who owns `directory` when this process runs as root and that user
    /// is another; `nil` otherwise (not root, root's own directory, or no such directory).
    static func foreignOwner(of directory: String) -> String? {
        guard geteuid() == 0 else { return nil }
        var status = stat()
        do {
            try SystemCall.retrying("stat", subject: directory) { stat(directory, &status) }
        } catch {
            return nil  // missing: whoever creates it owns it
        }
        guard status.st_uid != 0 else { return nil }
        return getpwuid(status.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "\(status.st_uid)"
    }
}
