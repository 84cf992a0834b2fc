import ServerTestSupport
import Foundation
import SwiftProtobuf
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutServer

/// Many calls in flight on many connections, answered out of order; deadlines, cancellation,
/// the calls-in-flight limit, compression and call id rules.
@Suite("Multiplexing over real connections")
struct MultiplexingTests {
    /// What a pipelined call asked, to check its answer against.
    enum Expected {
        case profile
        case history(count: Int)
        case weight(id: Data)
    }

    @Test("64 connections × 50 pipelined calls, randomly interleaved: every answer matches its request and the store holds exactly the writes")
    func sixtyFourConnectionsPipelined() async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        try await withServer { _, _, port in
            try await blocking {
                var random = SeededGenerator(seed: seed)
                let members = 8
                let connectionsPerMember = 8
                let callsPerConnection = 50

                // 8 members, each on 8 connections (one registers, seven resume its session),
                // member m with m workouts so that each member's history is recognisable.
                let owner = try TestConnection.owner(port: port)
                var connections: [(connection: TestConnection, member: Int)] = []
                var userIDs: [Data] = []
                for member in 0..<members {
                    let (first, registered) = try TestConnection.member(port: port, invitedBy: owner, email: "member\(member)@example.com")
                    userIDs.append(registered.profile.userID)
                    for index in 0..<member {
                        var request = Workout_V1_LogWorkoutRequest()
                        request.workout = workout(at: nowMilliseconds() - 3_600_000 - Int64(index) * 60_000)
                        _ = try first.call(MethodCatalog.logWorkout, request)
                    }
                    connections.append((first, member))
                    for _ in 1..<connectionsPerMember {
                        let connection = try TestConnection(port: port)
                        try connection.handshake()
                        var resume = Workout_V1_ResumeRequest()
                        resume.sessionToken = registered.sessionToken
                        _ = try connection.call(MethodCatalog.resume, resume)
                        connections.append((connection, member))
                    }
                }
                #expect(connections.count == 64)

                // Every request of every connection, sent in a random interleaving before any answer is read.
                var expected: [[UInt32: Expected]] = Array(repeating: [:], count: connections.count)
                var remaining = Array(repeating: callsPerConnection, count: connections.count)
                var written: [[Data]] = Array(repeating: [], count: members)
                for _ in 0..<(connections.count * callsPerConnection) {
                    let open = remaining.indices.filter { remaining[$0] > 0 }
                    let index = open.randomElement(using: &random)!
                    remaining[index] -= 1
                    let (connection, member) = connections[index]
                    let callID = connection.upcomingCallID
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0:
                        try connection.sendRequest(MethodCatalog.getProfile, Workout_V1_GetProfileRequest())
                        expected[index][callID] = .profile
                    case 1:
                        try connection.sendRequest(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest())
                        expected[index][callID] = .history(count: member)
                    default:
                        let entry = weightEntry(kilograms: Double(Int.random(in: 400...1_200, using: &random)) / 10)
                        try connection.sendRequest(MethodCatalog.logWeight, logWeight(entry))
                        expected[index][callID] = .weight(id: entry.id)
                        written[member].append(entry.id)
                    }
                }

                // Read every answer; they may come in any order.
                for (index, (connection, member)) in connections.enumerated() {
                    var answered: Set<UInt32> = []
                    for _ in 0..<callsPerConnection {
                        let frame = try connection.readFrame()
                        #expect(frame.type == .response, "seed \(seed)")
                        #expect(frame.status == .ok, "seed \(seed): \(frame.status.name)")
                        #expect(answered.insert(frame.callID).inserted, "call \(frame.callID) answered twice, seed \(seed)")
                        switch expected[index][frame.callID] {
                        case .profile:
                            let profile = try TestConnection.decode(frame, as: Workout_V1_GetProfileResponse.self)
                            #expect(profile.profile.userID == userIDs[member])
                        case .history(let count):
                            let history = try TestConnection.decode(frame, as: Workout_V1_WorkoutHistoryResponse.self)
                            #expect(history.workouts.count == count)
                        case .weight(let id):
                            let logged = try TestConnection.decode(frame, as: Workout_V1_LogWeightResponse.self)
                            #expect(logged.entry.id == id && !logged.replayed)
                        case nil:
                            Issue.record("an answer for call \(frame.callID), which was never sent, seed \(seed)")
                        }
                    }
                    #expect(answered == Set(expected[index].keys))
                }

                // The store holds exactly the writes, member by member.
                for member in 0..<members {
                    var request = Workout_V1_WeightProgressRequest()
                    request.pageSize = 1_000
                    let entries = try connections[member * connectionsPerMember].connection.call(MethodCatalog.weightProgress, request).entries
                    #expect(entries.count == written[member].count, "seed \(seed)")
                    #expect(Set(entries.map(\.id)) == Set(written[member]), "seed \(seed)")
                }
            }
        }
    }

    @Test("A deadline that cannot be met gets DEADLINE_EXCEEDED, once, for unary calls and streams")
    func deadlines() async throws {
        try await withServer { _, household, port in
            try await blocking {
                let connection = try TestConnection.owner(port: port)
                // Already passed on arrival.
                let zero = try connection.sendRequest(MethodCatalog.getProfile, Workout_V1_GetProfileRequest(), deadline: 0)
                let zeroEnd = try connection.finalFrame(of: zero)
                #expect(zeroEnd.type == .response && zeroEnd.status == .deadlineExceeded)

                // A write stuck behind a busy writer.
                let stall = stallWriter(household, for: 3)
                let entry = weightEntry()
                let write = try connection.sendRequest(MethodCatalog.logWeight, logWeight(entry), deadline: 100)
                let writeEnd = try connection.finalFrame(of: write)
                #expect(writeEnd.type == .response && writeEnd.status == .deadlineExceeded)
                // The answer did not wait for the writer: it is still stalled.
                #expect(stall.wait(timeout: .now()) == .timedOut)
                stall.wait()
                // Nothing more for that call once the writer has moved on.
                let sync = try connection.sendRequest(MethodCatalog.logWeight, logWeight(weightEntry()))
                let after = try connection.readFrame { $0.callID == sync || $0.callID == write }
                #expect(after.callID == sync && after.status == .ok)

                // A stream's deadline covers the whole stream.
                let watch = try connection.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest(), deadline: 150)
                let watchStart = Date()
                var frames: [Frame] = []
                for _ in 0..<50 {
                    let frame = try connection.readFrame { $0.callID == watch }
                    frames.append(frame)
                    if frame.type != .streamMessage { break }
                }
                #expect(frames.first?.type == .streamMessage)
                #expect(frames.last?.type == .streamEnd && frames.last?.status == .deadlineExceeded)
                #expect(Date().timeIntervalSince(watchStart) >= 0.1)
                #expect(try connection.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
            }
        }
    }

    @Test("CANCEL of a call in flight gets CANCELLED, or its result if it finished first, never both")
    func cancellation() async throws {
        try await withServer { _, household, port in
            try await blocking {
                let connection = try TestConnection.owner(port: port)
                // A Watch is in flight until cancelled.
                let watch = try connection.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
                #expect(try connection.readFrame { $0.callID == watch }.type == .streamMessage)
                try connection.cancel(watch)
                let watchEnd = try connection.finalFrame(of: watch)
                #expect(watchEnd.type == .streamEnd && watchEnd.status == .cancelled)

                // A write held in flight by a busy writer.
                let stall = stallWriter(household, for: 0.4)
                let held = try connection.sendRequest(MethodCatalog.logWeight, logWeight(weightEntry()))
                try connection.cancel(held)
                let heldEnd = try connection.finalFrame(of: held)
                #expect(heldEnd.type == .response && heldEnd.status == .cancelled)
                stall.wait()

                // Cancels racing with writes: exactly one final frame each, OK or CANCELLED.
                var raced: [UInt32] = []
                for _ in 0..<30 {
                    let id = try connection.sendRequest(MethodCatalog.logWeight, logWeight(weightEntry()))
                    try connection.cancel(id)
                    raced.append(id)
                }
                // A CANCEL of an unknown or finished call is ignored.
                try connection.cancel(watch)
                try connection.cancel(9_999)
                let barrier = try connection.sendRequest(MethodCatalog.logWeight, logWeight(weightEntry()))
                var finals: [UInt32: [StatusCode]] = [:]
                for _ in 0..<200 {
                    let frame = try connection.readFrame()
                    guard frame.type == .response else { continue }
                    finals[frame.callID, default: []].append(frame.status)
                    if frame.callID == barrier { break }
                }
                // Let any late duplicate arrive before checking.
                let health = try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest())
                for _ in 0..<50 {
                    let frame = try connection.readFrame()
                    guard frame.type == .response else { continue }
                    if frame.callID == health { break }
                    finals[frame.callID, default: []].append(frame.status)
                }
                for id in raced {
                    let statuses = finals[id] ?? []
                    #expect(statuses.count == 1, "call \(id) got \(statuses.map(\.name))")
                    #expect(statuses.allSatisfy { $0 == .ok || $0 == .cancelled })
                }
                #expect(finals[held] == nil && finals[watch] == nil && finals[9_999] == nil)
                #expect(finals[barrier] == [.ok])
            }
        }
    }

    @Test("More calls than max_calls_in_flight: the excess gets RESOURCE_EXHAUSTED and the connection stays open")
    func callsInFlightLimit() async throws {
        try await withServer(configure: { $0.maxCallsInFlight = 4 }) { _, household, port in
            try await blocking {
                let connection = try TestConnection.owner(port: port)
                #expect(connection.serverHello?.maxCallsInFlight == 4)

                // Ten writes while the writer is busy: four are in flight, six are refused at once.
                let stall = stallWriter(household, for: 0.5)
                var ids: [UInt32] = []
                for _ in 0..<10 {
                    ids.append(try connection.sendRequest(MethodCatalog.logWeight, logWeight(weightEntry())))
                }
                var statuses: [UInt32: StatusCode] = [:]
                for _ in 0..<10 {
                    let frame = try connection.readFrame { $0.type == .response }
                    #expect(statuses.updateValue(frame.status, forKey: frame.callID) == nil)
                    if frame.status == .resourceExhausted {
                        let details = try Workout_V1_RpcStatus(serializedBytes: frame.body)
                        #expect(details.message.contains("calls in flight"))
                    }
                }
                stall.wait()
                #expect(ids.prefix(4).allSatisfy { statuses[$0] == .ok })
                #expect(ids.dropFirst(4).allSatisfy { statuses[$0] == .resourceExhausted })

                // Open Watches hold their slots; even an inline read is refused then.
                var watches: [UInt32] = []
                for _ in 0..<4 {
                    let watch = try connection.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
                    #expect(try connection.readFrame { $0.callID == watch }.type == .streamMessage)
                    watches.append(watch)
                }
                #expect(try connection.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .resourceExhausted)
                let fifth = try connection.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
                let refused = try connection.finalFrame(of: fifth)
                #expect(refused.type == .streamEnd && refused.status == .resourceExhausted)
                try connection.cancel(watches[0])
                #expect(try connection.finalFrame(of: watches[0]).status == .cancelled)
                #expect(try connection.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .ok)
            }
        }
    }

    @Test("Large responses come compressed to a client that accepts it, decode to the same message, and plain otherwise")
    func compressedResponses() async throws {
        try await withServer { _, _, port in
            try await blocking {
                let compressing = try TestConnection.owner(port: port, acceptsCompressed: true)
                let plain = try TestConnection.owner(port: port, acceptsCompressed: false)
                let time = nowMilliseconds() - 3_600_000
                for index in 0..<20 {
                    var request = Workout_V1_LogMealRequest()
                    request.meal = meal(items: 30, at: time - Int64(index) * 1_000)
                    if index % 2 == 0 {
                        _ = try compressing.call(MethodCatalog.logMeal, request)
                    } else {
                        // A compressed request body, too.
                        let body = Compression.deflate(try request.serializedBytes())
                        let id = try compressing.sendRequest(method: MethodCatalog.logMeal.number, body: body, compressed: true)
                        #expect(try compressing.finalFrame(of: id).status == .ok)
                    }
                }
                var mealsOfDay = Workout_V1_MealsOfDayRequest()
                mealsOfDay.day = utcDay(of: time)
                mealsOfDay.timeZone = "UTC"
                let id = try compressing.sendRequest(MethodCatalog.mealsOfDay, mealsOfDay)
                let frame = try compressing.finalFrame(of: id)
                #expect(frame.isCompressed && frame.status == .ok)
                #expect(Array(frame.body.prefix(1)) == [0x78])
                let inflated = try TestConnection.decode(frame, as: Workout_V1_MealsOfDayResponse.self)
                let inflatedSize = (try inflated.serializedBytes() as [UInt8]).count
                #expect(frame.body.count < inflatedSize)
                let plainID = try plain.sendRequest(MethodCatalog.mealsOfDay, mealsOfDay)
                let plainFrame = try plain.finalFrame(of: plainID)
                #expect(!plainFrame.isCompressed)
                let uncompressed = try TestConnection.decode(plainFrame, as: Workout_V1_MealsOfDayResponse.self)
                #expect(inflated == uncompressed)
                #expect(inflated.meals.count == 20 && inflated.meals.allSatisfy { $0.items.count == 30 })

                // Export chunks, compressed.
                let export = try compressing.sendRequest(MethodCatalog.export, Workout_V1_ExportRequest())
                var meals = 0
                for _ in 0..<100 {
                    let chunk = try compressing.readFrame { $0.callID == export }
                    if chunk.type == .streamEnd {
                        #expect(chunk.status == .ok)
                        break
                    }
                    let decoded = try Workout_V1_ExportChunk(serializedBytes: chunk.decodedBody(maxDecompressedSize: 1 << 24))
                    if decoded.meals.count > 1 { #expect(chunk.isCompressed) }
                    meals += decoded.meals.count
                }
                #expect(meals == 20)
                // Small answers are never compressed.
                let small = try compressing.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest())
                #expect(try !compressing.finalFrame(of: small).isCompressed)
            }
        }
    }

    @Test("A call id that does not increase gets GOAWAY INVALID_ARGUMENT naming the last accepted call, then close")
    func callIDMustIncrease() async throws {
        try await withServer { server, _, port in
            try await blocking {
                let connection = try TestConnection.owner(port: port)
                let last = try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest(), callID: 10)
                #expect(try connection.finalFrame(of: last).status == .ok)
                try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest(), callID: 10)
                let frames = try connection.readUntilClosed()
                let goAway = frames.last
                #expect(goAway?.type == .goAway)
                #expect(goAway?.status == .invalidArgument)
                #expect(goAway?.callID == 10)
                #expect(frames.filter { $0.type == .response }.isEmpty)
                #expect(eventually { server.openConnections == 0 })
            }
        }
    }
}
