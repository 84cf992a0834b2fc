import Benchmark
import SwiftProtobuf
import WorkoutCore
import WorkoutProtocol

/// One `Queries.MealsOfDay` call as the server serves it, minus the socket and the
/// connection's bookkeeping: the REQUEST frame decoded from the bytes a client sent, its body
/// decoded as a `MealsOfDayRequest`, the day read from the store and its reply encoded
/// (``HouseholdStore/mealsOfDayEncoded(_:_:maxResponseBytes:)``), the RESPONSE framed into a
/// reused output buffer.
final class MealsOfDayCall {
    /// The preloaded store and its logged-in member.
    let fixture: PreloadedHousehold
    /// The REQUEST frame a client sends: the last preloaded day, 10 meals.
    let requestFrame: [UInt8]
    /// The request, decoded once (for the query alone).
    let request: Workout_V1_MealsOfDayRequest
    private var decoder = FrameDecoder(role: .server, maxFrameSize: HandshakeLimits.defaultMaxFrameSize, expectingPreface: false)
    private let encoder = FrameEncoder(maxFrameSize: HandshakeLimits.defaultMaxFrameSize)
    private var output: [UInt8] = []

    /// Preloads a store and checks that the call answers the day's 10 meals.
    ///
    /// - Throws: the fixture's errors; ``MicroBenchmarkFailure`` when the answer is not the
    ///   day's meals.
    init() async throws {
        fixture = try await PreloadedHousehold()
        let body = fixture.lastDayRequest
        request = try Workout_V1_MealsOfDayRequest(serializedBytes: body)
        var frame: [UInt8] = []
        Frame(type: .request, callID: 1, code: MethodCatalog.mealsOfDay.number, body: body).encode(into: &frame)
        requestFrame = frame
        output.reserveCapacity(64 << 10)
        try serve()
        var replyDecoder = FrameDecoder(role: .client, maxFrameSize: HandshakeLimits.defaultMaxFrameSize, expectingPreface: false)
        replyDecoder.append(output)
        guard let reply = try replyDecoder.nextFrame(), reply.type == .response, reply.status == .ok else {
            throw MicroBenchmarkFailure("MealsOfDay did not answer with an OK RESPONSE frame")
        }
        let meals = try Workout_V1_MealsOfDayResponse(serializedBytes: reply.body).meals.count
        guard meals == fixture.plan.mealsPerDay else {
            throw MicroBenchmarkFailure("MealsOfDay answered \(meals) meals, not the \(fixture.plan.mealsPerDay) preloaded")
        }
    }

    /// Serves the call once: REQUEST bytes in, RESPONSE frame in ``output``.
    @inline(never)
    func serve() throws {
        decoder.append(requestFrame)
        guard let frame = try decoder.nextFrame() else { throw MicroBenchmarkFailure("the REQUEST frame did not decode") }
        let body = try frame.decodedBody(maxDecompressedSize: HandshakeLimits.defaultMaxFrameSize)
        let request = try Workout_V1_MealsOfDayRequest(serializedBytes: body)
        let reply = try fixture.household.mealsOfDayEncoded(fixture.caller, request, maxResponseBytes: encoder.maxFrameSize)
        output.removeAll(keepingCapacity: true)
        try encoder.append(.response, callID: frame.callID, body: reply, to: &output)
    }

    /// The store's part alone: the decoded request answered as encoded reply bytes.
    @inline(never)
    func query() throws -> [UInt8] {
        try fixture.household.mealsOfDayEncoded(fixture.caller, request, maxResponseBytes: encoder.maxFrameSize)
    }
}
