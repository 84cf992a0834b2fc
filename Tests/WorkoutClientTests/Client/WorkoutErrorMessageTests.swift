import Foundation
import Testing
@testable import WorkoutClient

/// What an app shows: ``WorkoutError`` as a `LocalizedError`, its trust failures' messages, and
/// messages in Swift terms (no milliseconds).
@Suite("WorkoutError's messages for people")
struct WorkoutErrorMessageTests {
    static let address = ServerAddress(host: "home.local", port: 7420)
    static let pinned = ServerFingerprint("BDKF-BXMF-3AR5-DQVV-VZZU-E4YJ-EMBT-M3PJ-JBBG-HL76-ASCE-VRVP-CZCQ")!
    static let presented = ServerFingerprint(publicKey: [1, 2, 3])

    struct Row: CustomStringConvertible, Sendable {
        var error: WorkoutError
        /// Words the description must hold.
        var says: [String]
        /// Words the recovery suggestion must hold.
        var suggests: [String]

        var description: String { error.description }
    }

    static let rows: [Row] = [
        Row(
            error: WorkoutError(TrustFailure(.keyChanged, address: address, presented: presented, pinned: pinned)),
            says: ["The key of the server at home.local:7420 has changed", pinned.description, presented.description, "Nothing was sent."],
            suggests: ["workoutd fingerprint", "forget"]),
        Row(
            error: WorkoutError(TrustFailure(.endorsementInvalid, address: address, presented: presented, pinned: pinned)),
            says: ["key endorsement that does not hold", presented.description],
            suggests: ["forget"]),
        Row(
            error: WorkoutError(TrustFailure(.notTrustedYet, address: address, presented: presented)),
            says: ["is not trusted yet", presented.description],
            suggests: ["workoutd fingerprint", "only if they match"]),
        Row(
            error: WorkoutError(TrustFailure(.unexpectedKey, address: address, presented: presented, expected: pinned)),
            says: ["not the expected \(pinned)"],
            suggests: ["workoutd fingerprint"]),
        Row(
            error: WorkoutError(TrustFailure(.plainTCPRefused, address: address)),
            says: ["refusing to send a password over plain TCP to home.local:7420".capitalizedFirst],
            suggests: ["Connect with TLS", "TLS proxy"]),
        Row(
            error: WorkoutError(TrustFailure(.inviteKeyMismatch, address: address, expected: pinned)),
            says: ["plain TCP", pinned.description],
            suggests: ["new invite"]),
        Row(
            error: WorkoutError(code: .unavailable, message: "cannot reach the Workout server at home.local:7420: connection refused"),
            says: ["Cannot reach the Workout server at home.local:7420: connection refused."],
            suggests: ["Check the network"]),
        Row(
            error: WorkoutError(code: .resourceExhausted, message: "too many calls", retryAfter: .milliseconds(1_500)),
            says: ["Too many calls."],
            suggests: ["Try again in 1.5 seconds."]),
        Row(
            error: WorkoutError(code: .invalidArgument, message: "workout.durationSeconds must be between 1 and 86400", field: "workout.durationSeconds"),
            says: ["workout.durationSeconds must be between 1 and 86400."],
            suggests: ["Correct the value"]),
        Row(error: WorkoutError(code: .unauthenticated, message: ""), says: ["UNAUTHENTICATED"], suggests: ["Sign in again."]),
    ]

    @Test("Each main case says what happened and what to do", arguments: rows)
    func messages(row: Row) throws {
        let description = try #require(row.error.errorDescription)
        let suggestion = try #require(row.error.recoverySuggestion)
        for words in row.says { #expect(description.contains(words), "\(description)") }
        for words in row.suggests { #expect(suggestion.contains(words), "\(suggestion)") }
        #expect((row.error as any Error).localizedDescription == description)
        // No shouting, no wire names; a suggestion in the member's words, naming no API.
        #expect(!description.contains("WARNING"))
        #expect(!description.contains("HAS CHANGED"))
        for api in ["ServerTrust", "ServerPinStore", "TransportSecurity", "(_:)", "confirmNewServer"] {
            #expect(!suggestion.contains(api), "\(suggestion)")
        }
    }

    @Test(
        "Milliseconds from the server are said as seconds and dates",
        arguments: [
            ("import batches are limited to 30 per minute; send this batch again in 1500 ms",
             "import batches are limited to 30 per minute; send this batch again in 1.5 seconds"),
            ("the call did not finish within its deadline of 1000 ms", "the call did not finish within its deadline of 1 second"),
            ("workout.performedAt must be between 946684800000 (2000-01-01T00:00:00Z) and 1767312000000 (server time + 1 day), "
                + "in milliseconds since 1970 (got 12)",
             "workout.performedAt must be between 2000-01-01T00:00:00Z and 2026-01-02T00:00:00Z (server time + 1 day) (got 12)"),
            ("no times here: 1500 steps", "no times here: 1500 steps"),
        ])
    func timeWords(wire: String, swift: String) {
        #expect(SwiftTimeWords.rewriting(wire) == swift)
    }

    @Test("Every fingerprint the documentation shows parses")
    func documentedFingerprints() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let catalog = root.appending(path: "Sources/WorkoutClient/WorkoutClient.docc")
        var files = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
            .map { catalog.appending(path: $0) }
        files.append(root.appending(path: "Sources/WorkoutClient/Security/ServerFingerprint.swift"))
        files.append(root.appending(path: "Sources/WorkoutClient/Security/TrustFailure.swift"))
        var found = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /[A-Z2-7]{4}(-[A-Z2-7]{4}){12}/) {
                found += 1
                #expect(ServerFingerprint(String(match.output.0)) != nil, "\(match.output.0) in \(file.lastPathComponent)")
            }
        }
        #expect(found >= 2)
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
