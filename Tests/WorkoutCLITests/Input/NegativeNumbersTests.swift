import Testing
@testable import workout

/// Negative numbers given as arguments move behind `--`, so they reach the command's check.
@Suite("Negative numbers as arguments")
struct NegativeNumbersTests {
    @Test("A negative number after a value moves behind --; one after an option stays its value", arguments: [
        (["log", "steps", "-5"], ["log", "steps", "--", "-5"]),
        (["log", "steps", "-5", "--day", "yesterday"], ["log", "steps", "--day", "yesterday", "--", "-5"]),
        (["log", "weight", "-72.4", "--", "more"], ["log", "weight", "--", "-72.4", "more"]),
        (["log", "workout", "running", "--calories", "-200"], ["log", "workout", "running", "--calories", "-200"]),
        (["log", "steps", "8500"], ["log", "steps", "8500"]),
        (["log", "steps", "--", "-5"], ["log", "steps", "--", "-5"]),
        (["history", "-h"], ["history", "-h"]),
    ])
    func arranged(arguments: [String], expected: [String]) {
        #expect(NegativeNumbers.arranged(arguments) == expected)
    }

    @Test("Asked to, a negative number after an option or flag moves too", arguments: [
        (["log", "steps", "--json", "-5"], ["log", "steps", "--json", "--", "-5"]),
        (["log", "steps", "-5"], ["log", "steps", "--", "-5"]),
    ])
    func arrangedAfterOptions(arguments: [String], expected: [String]) {
        #expect(NegativeNumbers.arranged(arguments, afterOptions: true) == expected)
    }

    @Test("Only decimal numbers with a minus count as negative numbers", arguments: [
        ("-5", true), ("-72.4", true), ("-.5", true), ("-0", true),
        ("-", false), ("--", false), ("-h", false), ("--json", false), ("-5x", false), ("-1.2.3", false), ("5", false),
    ])
    func negative(text: String, isNegative: Bool) {
        #expect(NegativeNumbers.isNegativeNumber(text) == isNegative)
    }
}
