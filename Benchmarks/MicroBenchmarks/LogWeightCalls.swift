import Foundation
import SwiftProtobuf
import WorkoutBenchKit
import WorkoutCore
import WorkoutProtocol

/// `Logging.LogWeight` calls as the server serves them, minus the socket and the connection's
/// bookkeeping: each request body (a new entry: a fresh id, the current time) decoded, the
/// write applied by the store's group-commit writer and committed durably (synced) before
/// its answer, the response encoded, and the RESPONSE frames of a round framed into a reused
/// output buffer.
final class LogWeightCalls {
    /// The preloaded store and its logged-in member.
    let fixture: PreloadedHousehold
    private var template: RequestTemplate
    private var ids = TimeOrderedIDGenerator(seed: 17)
    private let encoder = FrameEncoder(maxFrameSize: HandshakeLimits.defaultMaxFrameSize)
    private var output: [UInt8] = []
    private var nextCallID: UInt32 = 1

    /// Preloads a store and checks that a call logs a new entry.
    ///
    /// - Throws: the fixture's errors; ``MicroBenchmarkFailure`` when the entry is not logged.
    init() async throws {
        fixture = try await PreloadedHousehold()
        template = fixture.bodies.logWeight
        output.reserveCapacity(64 << 10)
        let response = try Workout_V1_LogWeightResponse(serializedBytes: try await Self.serve(nextBody(), on: fixture))
        guard !response.replayed, response.entry.weightKg > 0 else {
            throw MicroBenchmarkFailure("LogWeight did not log a new entry")
        }
    }

    /// Durable commits the store has made so far.
    var commits: Int { Int(fixture.household.storeUsage().commits) }

    /// Serves `count` calls at once, each in its own task as connections would send them, and
    /// frames their answers.
    @inline(never)
    func serve(together count: Int) async throws {
        let bodies = (0..<count).map { _ in nextBody() }
        let fixture = fixture
        let household = fixture.household
        let caller = fixture.caller
        let replies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for body in bodies {
                group.addTask { try await Self.serve(body, household: household, caller: caller) }
            }
            var replies: [[UInt8]] = []
            replies.reserveCapacity(count)
            for try await reply in group { replies.append(reply) }
            return replies
        }
        output.removeAll(keepingCapacity: true)
        for reply in replies {
            try encoder.append(.response, callID: nextCallID, body: reply, to: &output)
            nextCallID &+= 1
        }
    }

    /// Serves one call and frames its answer.
    @inline(never)
    func serveOne() async throws {
        let reply = try await Self.serve(nextBody(), on: fixture)
        output.removeAll(keepingCapacity: true)
        try encoder.append(.response, callID: nextCallID, body: reply, to: &output)
        nextCallID &+= 1
    }

    /// The next request body: the template with a fresh id and the current time.
    private func nextBody() -> [UInt8] {
        let now = Int64(Date().timeIntervalSince1970 * 1_000) - 1_000
        template.stamp(milliseconds: now, ids: &ids)
        return template.bytes
    }

    private static func serve(_ body: [UInt8], on fixture: PreloadedHousehold) async throws -> [UInt8] {
        try await serve(body, household: fixture.household, caller: fixture.caller)
    }

    /// What the router does for a write: decode, apply (durably), encode.
    private static func serve(_ body: [UInt8], household: HouseholdStore, caller: Caller) async throws -> [UInt8] {
        let request = try Workout_V1_LogWeightRequest(serializedBytes: body)
        return try await household.logWeight(caller, request).serializedBytes()
    }
}
