import Testing
@testable import workout

/// An unknown command name is reported as such, with the name meant when one is close.
@Suite("Unknown commands")
struct UnknownCommandTests {
    @Test("Known command lines pass untouched", arguments: [
        ["log", "workout", "running", "--minutes", "30"], ["profile"], ["profile", "set", "--age", "30"], ["help", "log"],
        ["--help"], [], ["log"], ["sessions", "revoke", "0190a5b2"],
    ])
    func known(arguments: [String]) {
        #expect(UnknownCommand.message(for: arguments, root: WorkoutCLI.self) == nil)
    }

    @Test("An unknown name is blamed, with the nearest name or what the group takes", arguments: [
        (["lgo"], "unknown command 'lgo'; did you mean `workout log`?"),
        (["log", "wieght", "70"], "unknown command 'wieght'; did you mean `workout log weight`?"),
        (["profile", "sett", "--age", "30"], "unknown command 'sett'; did you mean `workout profile set`?"),
        (["log", "run", "--minutes", "30"],
         "unknown kind 'run': `workout log` takes workout, meal, weight, steps or template; to log a workout of that kind: workout log workout run --minutes 30"),
        (["admin", "frobnicate"], "unknown command 'frobnicate': `workout admin` takes "),
    ])
    func unknown(arguments: [String], message: String) throws {
        let said = try #require(UnknownCommand.message(for: arguments, root: WorkoutCLI.self))
        #expect(said.hasPrefix(message), "\(said)")
    }

    @Test("Distances count insertions, deletions and substitutions", arguments: [
        ("log", "log", 0), ("lgo", "log", 2), ("wieght", "weight", 2), ("sett", "set", 1), ("", "abc", 3), ("run", "meal", 4),
    ])
    func distance(a: String, b: String, expected: Int) {
        #expect(UnknownCommand.distance(a, b) == expected)
    }
}
