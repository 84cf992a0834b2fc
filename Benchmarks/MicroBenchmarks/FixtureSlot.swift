/// Holds what a benchmark's setup made, for its closure and its teardown (the benchmark
/// runner calls the three in turn on one task, never at once).
final class FixtureSlot<Fixture> {
    /// The fixture, between setup and teardown.
    var value: Fixture?

    /// The fixture, or a failure the benchmark reports.
    func get() throws -> Fixture {
        guard let value else { throw MicroBenchmarkFailure("the benchmark's setup made no fixture") }
        return value
    }
}

/// A benchmark that cannot do what it measures (its fixture is missing, an answer is wrong).
struct MicroBenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
