import ArgumentParser
import Foundation
import WorkoutServer

/// `workoutd fingerprint`: the fingerprint of the server's key, the one members compare with
/// what their app or `workout` shows on first connection (works while the server runs).
struct Fingerprint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the fingerprint of the server's TLS key, for members to compare.")

    /// How the fingerprint is written.
    enum Form: String, ExpressibleByArgument, CaseIterable {
        /// Base32 in groups, as members compare it.
        case groups
        /// `sha256//` and the SHA-256 in base64: what `curl --pinnedpubkey` takes.
        case curl
    }

    @OptionGroup var options: DataDirectoryOptions

    @Option(help: "groups: base32 in groups, to compare; curl: sha256//BASE64, for curl --pinnedpubkey.")
    var format: Form = .groups

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
        switch format {
        case .groups: print(identity.fingerprint.description)
        case .curl: print("sha256//" + Data(identity.fingerprint.digest).base64EncodedString())
        }
    }
}
