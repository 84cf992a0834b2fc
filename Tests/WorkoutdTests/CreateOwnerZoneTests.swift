import Foundation
import Synchronization
import Testing
import TestSupport
@testable import workoutd

/// `workoutd create-owner` asks for the owner's time zone on a terminal (the machine's by
/// default), takes `--time-zone` too, and answers an unknown name with the nearest known one.
@Suite("The owner's time zone at create-owner")
struct CreateOwnerZoneTests {
    /// A terminal that answers with `lines` and keeps what was written to it.
    final class FakeTerminal: OwnerTimeZone.Terminal, Sendable {
        private let state: Mutex<(lines: [String], written: String)>

        init(_ lines: [String]) { state = Mutex((lines, "")) }

        var written: String { state.withLock { $0.written } }

        func write(_ text: String) { state.withLock { $0.written += text } }

        func readLine() -> String? {
            state.withLock { $0.lines.isEmpty ? nil : $0.lines.removeFirst() }
        }
    }

    @Test("An empty answer takes the machine's zone, offered as the default")
    func emptyAnswerTakesDefault() throws {
        let terminal = FakeTerminal([""])
        #expect(try OwnerTimeZone.ask(on: terminal, defaultZone: "America/Chicago") == "America/Chicago")
        #expect(terminal.written == "Time zone of the owner [America/Chicago]: ")
    }

    @Test("A named zone is taken as typed, around spaces")
    func namedZone() throws {
        #expect(try OwnerTimeZone.ask(on: FakeTerminal(["  Asia/Tokyo "]), defaultZone: "UTC") == "Asia/Tokyo")
    }

    @Test("An unknown name is refused with the nearest known one, and asked again")
    func unknownAskedAgain() throws {
        let terminal = FakeTerminal(["Europe/Berln", "Europe/Berlin"])
        #expect(try OwnerTimeZone.ask(on: terminal, defaultZone: "UTC") == "Europe/Berlin")
        #expect(terminal.written.contains("(got \"Europe/Berln\"); did you mean Europe/Berlin?\n"), "\(terminal.written)")
        #expect(terminal.written.components(separatedBy: "Time zone of the owner").count == 3, "asked twice: \(terminal.written)")
    }

    @Test("Input that ends before an answer is refused, naming --time-zone")
    func endOfInput() {
        #expect(throws: CommandFailure.self) { try OwnerTimeZone.ask(on: FakeTerminal([]), defaultZone: "UTC") }
    }

    @Test("The nearest known zone, by the whole name or its place, whatever the case", arguments: [
        ("Europe/Berln", "Europe/Berlin"),
        ("europe/berlin", "Europe/Berlin"),
        ("Berlin", "Europe/Berlin"),
        ("Amerika/New_York", "America/New_York"),
        ("Asia/Tokio", "Asia/Tokyo"),
    ])
    func suggestion(typed: String, nearest: String) {
        #expect(OwnerTimeZone.suggestion(for: typed) == nearest)
    }

    @Test("Nothing is suggested for a name near no zone")
    func noSuggestion() {
        #expect(OwnerTimeZone.suggestion(for: "qqqqqqqqqqqqqqqqqqqqqqqq") == nil)
        #expect(OwnerTimeZone.refusal("qqqqqqqqqqqqqqqqqqqqqqqq", named: "--time-zone").contains("did you mean") == false)
    }

    @Test("--time-zone with a misspelt zone is refused with a suggestion; a known one is stored")
    func flag() throws {
        try withTemporaryDirectory { path in
            let base = ["create-owner", "--data-dir", path + "/data", "--email", "ada@example.com", "--first-name", "Ada", "--password-stdin"]
            let refused = try WorkoutdProcess.run(base + ["--time-zone", "Europe/Berln"], input: "correct horse battery\n")
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.error.contains("--time-zone must be an IANA time zone"), "\(refused)")
            #expect(refused.error.contains("did you mean Europe/Berlin?"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: path + "/data/data.mdb"))

            let created = try WorkoutdProcess.run(base + ["--time-zone", "Asia/Tokyo"], input: "correct horse battery\n")
            #expect(created.status == 0, "\(created)")
            #expect(created.output.contains("time zone: Asia/Tokyo"), "\(created)")
        }
    }

    @Test("Without a terminal and without --time-zone, the machine's zone is taken unasked")
    func noTerminal() throws {
        try withTemporaryDirectory { path in
            let created = try WorkoutdProcess.run(
                ["create-owner", "--data-dir", path + "/data", "--email", "ada@example.com", "--first-name", "Ada", "--password-stdin"],
                input: "correct horse battery\n", environment: ["TZ": "America/Chicago"])
            #expect(created.status == 0, "\(created)")
            #expect(created.output.contains("time zone: America/Chicago"), "\(created)")
            #expect(!created.error.contains("Time zone of the owner"), "\(created)")
        }
    }
}
