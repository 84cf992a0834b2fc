import ArgumentParser
import WorkoutServer

/// `workoutd rotate-key`: replaces the server's key with a new one that the old key vouches
/// for, so that members' devices accept it without a new comparison. Run with the server
/// stopped (it holds the data directory's lock); the new key is used from its next start.
struct RotateKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-key",
        abstract: "Replace the server's TLS key with a new one the old key vouches for (server stopped).")

    @OptionGroup var options: DataDirectoryOptions

    func run() throws {
        let directory = try options.resolvedDataDirectory()
        let (old, new) = try DataDirectoryLock.withLock(dataDirectory: directory) { _ in
            do {
                return try ServerIdentity.rotate(in: directory)
            } catch {
                throw CommandFailure(.store, "\(error)")
            }
        }
        print("old key fingerprint: \(old.fingerprint)")
        print("new key fingerprint: \(new.fingerprint)")
        print("the old key vouches for the new one: devices that pinned the old key accept the new one by themselves")
    }
}
