import ArgumentParser
import WorkoutClient

/// `--fingerprint`: the server's key as `workoutd fingerprint` prints it, given up front for a
/// server this machine has not trusted yet (instead of comparing it by eye at a prompt).
struct FingerprintOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The server's key fingerprint as `workoutd fingerprint` prints it, for a server this machine has not trusted yet (default: $WORKOUT_SERVER_FINGERPRINT).",
        valueName: "fingerprint"))
    var fingerprint: String?

    /// What a fingerprint looks like, for messages about one that is not.
    static let expectedForm = "52 letters and digits of base32, in groups as `workoutd fingerprint` prints them"

    /// The fingerprint given, or `nil` when none was.
    ///
    /// - Throws: ``CLIError`` (usage) when the text is not a fingerprint.
    func parsed() throws -> ServerFingerprint? {
        guard let fingerprint else { return nil }
        guard let parsed = ServerFingerprint(fingerprint) else {
            throw CLIError(.usage, "--fingerprint: \"\(fingerprint)\" is not a key fingerprint (\(Self.expectedForm))")
        }
        return parsed
    }
}
