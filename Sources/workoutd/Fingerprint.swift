import ArgumentParser
import WorkoutServer

/// `workoutd fingerprint`: the fingerprint of the server's key, the one members compare with
/// what their app or `workout` shows on first connection (works while the server runs).
struct Fingerprint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the fingerprint of the server's TLS key, for members to compare.")

    @OptionGroup var options: DataDirectoryOptions

    func run() throws {
        let directory = try options.resolvedDataDirectory()
        let loaded: ServerIdentity?
        do {
            loaded = try ServerIdentity.load(from: directory)
        } catch {
            throw CommandFailure(.store, error.message)
        }
        guard let identity = loaded else {
            throw CommandFailure(.refused, "\(directory) has no server key yet; `workoutd serve` makes one on its first start")
        }
        print(identity.fingerprint.description)
    }
}
