import Foundation

/// Runs one benchmark's operation a given number of times without the benchmark runner, for
/// `valgrind --tool=callgrind` where the CPU's instruction counters cannot be read: the
/// difference between the counts of two runs (say 1,000 and 2,000 operations) is the cost of
/// the extra operations alone — setup, preload and exit cancel out, and the writer's thread
/// is counted with the caller's.
///
///     WORKOUT_MICROBENCH_PROFILE=read:2000 valgrind --tool=callgrind workout-microbench
///
/// Benchmarks/micro-callgrind.sh does both runs and prints instructions, mallocs, retains and
/// releases per operation.
enum ProfileRun {
    /// The environment variable that asks for a profile run: `OPERATION:COUNT`.
    static let variable = "WORKOUT_MICROBENCH_PROFILE"

    /// The operations a profile run can repeat.
    enum Operation: String, CaseIterable {
        /// ``MealsOfDayCall/serve()``: REQUEST frame to RESPONSE frame.
        case read
        /// ``MealsOfDayCall/query()``: the store's query alone.
        case query
        /// ``LogWeightCalls/serveOne()``: one LogWeight, one durable commit.
        case write
        /// ``LogWeightCalls/serve(together:)``: 32 LogWeight calls together (one operation).
        case write32
        /// ``TLSRoundTrip/roundTrip()``: a request and its reply through a client's and a server's TLS sessions.
        case tls
        /// ``TLSHandshake/handshake()``: a full TLS handshake, both sides.
        case handshake
    }

    /// Parses `OPERATION:COUNT`.
    ///
    /// - Throws: ``MicroBenchmarkFailure`` naming what is wrong.
    static func parse(_ specification: String) throws -> (Operation, Int) {
        let parts = specification.split(separator: ":", omittingEmptySubsequences: false)
        let names = Operation.allCases.map(\.rawValue).joined(separator: ", ")
        guard parts.count == 2, let operation = Operation(rawValue: String(parts[0])) else {
            throw MicroBenchmarkFailure("\(variable) must be OPERATION:COUNT with OPERATION one of \(names), not '\(specification)'")
        }
        guard let count = Int(parts[1]), (1...1_000_000).contains(count) else {
            throw MicroBenchmarkFailure("\(variable)'s COUNT must be 1 to 1,000,000, not '\(parts[1])'")
        }
        return (operation, count)
    }

    /// Sets the operation's fixture up, repeats the operation `count` times and removes the fixture.
    static func run(_ operation: Operation, count: Int) async throws {
        switch operation {
        case .read, .query:
            let call = try await MealsOfDayCall()
            defer { call.fixture.remove() }
            try repeatRead(call, query: operation == .query, count: count)
        case .tls:
            let sessions = try TLSRoundTrip()
            for _ in 0..<count {
                try sessions.roundTrip()
            }
        case .handshake:
            let contexts = try TLSHandshake()
            for _ in 0..<count {
                try contexts.handshake()
            }
        case .write, .write32:
            let calls = try await LogWeightCalls()
            defer { calls.fixture.remove() }
            for _ in 0..<count {
                if operation == .write {
                    try await calls.serveOne()
                } else {
                    try await calls.serve(together: WritePathBenchmarks.together)
                }
            }
        }
    }

    @inline(never)
    private static func repeatRead(_ call: MealsOfDayCall, query: Bool, count: Int) throws {
        for _ in 0..<count {
            if query {
                _ = try call.query()
            } else {
                try call.serve()
            }
        }
    }
}
