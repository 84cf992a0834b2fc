import Testing
@testable import workoutd

/// The command a hint names for running `workoutd` again: what works where this one runs.
@Suite("How to run workoutd, as the hints say it")
struct HowToRunTests {
    @Test("A checkout's build says swift run, an installed binary its name, one elsewhere its path", arguments: [
        ("/home/ada/workout/.build/x86_64-unknown-linux-gnu/debug/workoutd", "/usr/local/bin:/usr/bin", "swift run workoutd"),
        ("/home/ada/workout/.build/release/workoutd", "/usr/bin", "swift run workoutd"),
        ("/usr/local/bin/workoutd", "/usr/local/sbin:/usr/local/bin:/usr/bin", "workoutd"),
        ("/usr/local/bin/workoutd", "/usr/local/bin/:/usr/bin", "workoutd"),
        ("/opt/workout/bin/workoutd", "/usr/local/bin:/usr/bin", "/opt/workout/bin/workoutd"),
    ])
    func command(executable: String, path: String, expected: String) {
        #expect(HowToRun.command(executable: executable, path: path) == expected)
    }
}
