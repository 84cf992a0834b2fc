import ArgumentParser
import Foundation
import WorkoutProtocol
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

    @Option(help: ArgumentHelp("The household's certificate that `serve --tls-certificate` presents (PEM, the leaf first): print its key's fingerprint instead of the self-made key's.", valueName: "file"))
    var tlsCertificate: String?

    func run() throws {
        if let tlsCertificate {
            do {
                print(Self.text(try HouseholdCertificate.leaf(in: tlsCertificate).fingerprint, format))
            } catch {
                throw CommandFailure(.badInput, error.message)
            }
            return
        }
        let directory = try options.resolvedDataDirectory()
        let loaded: ServerIdentity?
        do {
            loaded = try ServerIdentity.load(from: directory)
        } catch {
            throw CommandFailure(.store, error.message)
        }
        guard let identity = loaded else {
            throw CommandFailure(.refused, "\(directory) has no server key yet; `workoutd serve` makes one on its first start "
                + "(a server started with --tls-certificate presents that certificate's key: `workoutd fingerprint --tls-certificate FILE`)")
        }
        print(Self.text(identity.fingerprint, format))
    }

    /// A fingerprint as `format` writes it.
    static func text(_ fingerprint: KeyFingerprint, _ format: Form) -> String {
        switch format {
        case .groups: fingerprint.description
        case .curl: "sha256//" + Data(fingerprint.digest).base64EncodedString()
        }
    }
}
