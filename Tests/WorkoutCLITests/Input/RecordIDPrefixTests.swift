import ArgumentParser
import Foundation
import Testing
@testable import workout

/// Record IDs and their prefixes on the command line.
@Suite("Record IDs and prefixes (edit, delete)")
struct RecordIDPrefixTests {
    static let id = UUID(uuidString: "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7B")!

    @Test("A whole ID in any case, with or without hyphens, is the ID", arguments: [
        "0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b", "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7B", "0190a5b27c3e7d4f9a1b2c3d4e5f6a7b", " 0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b ",
    ])
    func whole(text: String) throws {
        let prefix = try RecordIDPrefix(parsing: text)
        #expect(prefix.wholeID == Self.id)
        #expect(prefix.matches(Self.id))
    }

    @Test("4 or more hex digits match the IDs that start or end with them (a time-ordered ID's last digits tell records apart)", arguments: [
        ("0190", true), ("0190a5b2", true), ("0190A5B2-7c", true), ("0190a5b2-7c3f", false), ("1190", false),
        ("6a7b", true), ("3d4e5f6a7b", true), ("2c3d4e5f6a7B", true), ("6a7c", false), ("5f6a", false),
    ])
    func prefix(text: String, matches: Bool) throws {
        let prefix = try RecordIDPrefix(parsing: text)
        #expect(prefix.wholeID == nil)
        #expect(prefix.matches(Self.id) == matches)
    }

    @Test("Fewer than 4 digits, more than 32, or anything but hex digits and hyphens is refused", arguments: [
        "", "019", "01-9", "0190g", "0190 a5", "0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b0", "latest",
    ])
    func malformed(text: String) {
        #expect(throws: ValidationError.self) { try RecordIDPrefix(parsing: text) }
    }

    @Test("One match is the record; none is not found (66); several are listed (64), newest first")
    func choose() throws {
        let older = FoundRecord.weight(.init(id: UUID(), weightKg: 72, measuredAt: Date(timeIntervalSince1970: 1_700_000_000)))
        let newer = FoundRecord.weight(.init(id: UUID(), weightKg: 71, measuredAt: Date(timeIntervalSince1970: 1_700_086_400)))
        let prefix = try RecordIDPrefix(parsing: "abcd")
        #expect(try RecordFinder.choose(.weight, prefix, from: [older], complete: true).id == older.id)
        #expect(throws: CLIError(.notFound, "no weigh-in of yours has an ID that starts or ends with \"abcd\"; `workout weight --json` lists their IDs")) {
            try RecordFinder.choose(.weight, prefix, from: [], complete: true)
        }
        do {
            _ = try RecordFinder.choose(.weight, prefix, from: [older, newer], complete: true)
            Issue.record("two matches were not refused")
        } catch {
            #expect(error.status == .usage)
            let lines = error.message.split(separator: "\n").map(String.init)
            #expect(lines.first == "\"abcd\" matches 2 weigh-ins; give more of the ID:")
            #expect(lines.count == 3 && lines[1].contains(Format.id(newer.id)) && lines[2].contains(Format.id(older.id)))
        }
        let unsettled = #expect(throws: CLIError.self) { try RecordFinder.choose(.weight, prefix, from: [older], complete: false) }
        #expect(unsettled?.status == .failure)
    }

    @Test("Fitness goals by their command-line names", arguments: [
        ("lose-weight", "loseWeight"), ("GAIN_MUSCLE", "gainMuscle"), ("generalFitness", "generalFitness"), ("none", nil),
    ])
    func goal(text: String, goal: String?) throws {
        let parsed = try GoalArgument.parse(text)
        #expect(parsed.value?.rawValue == goal)
    }
}
