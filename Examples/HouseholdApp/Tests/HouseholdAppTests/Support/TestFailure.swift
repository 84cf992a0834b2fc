/// A test cannot go on: a setup step failed (no `workoutd`, a server that did not start) or a
/// wait timed out. The test fails with this description.
struct TestFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
