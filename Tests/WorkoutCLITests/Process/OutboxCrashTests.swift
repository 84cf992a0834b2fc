import Foundation
import ProcessTestSupport
import TestSupport
import Testing
import WorkoutClient
import WorkoutOffline
#if canImport(Glibc)
import Glibc
#endif

/// The outbox killed at random moments, as processes: `workout-outbox-crasher` queues a thousand
/// workouts offline and is killed (SIGKILL) again and again while it writes; then it syncs them
/// to a `workoutd` and is killed again and again while it sends. In the end every workout is on
/// the server exactly once, in the order it was made, and a refused replay keeps its reason.
@Suite("Outbox killed while writing and while syncing", .serialized)
struct OutboxCrashTests {
    static let count = 1000
    static let account = "ada@example.com on the crash test's server"

    /// How the runs of one phase ended.
    struct Runs: CustomStringConvertible {
        var runs = 0
        var kills = 0
        /// Runs that found a torn tail left by the kill before (and dropped it).
        var tornTails = 0
        var lastOutput = ""
        var description: String { "\(runs) runs, \(kills) killed, \(tornTails) torn tails dropped" }
    }

    /// Runs the crasher with `arguments` until it exits by itself with 0, killing it with SIGKILL
    /// after a random delay in `killAfter` (seconds) for the first `killingRuns` runs; after those
    /// it runs to the end (at most 120 s). An exit with 2 (a sync stopped early) runs it again.
    static func runUntilDone(_ arguments: [String], killAfter: ClosedRange<Double>, killingRuns: Int) async throws -> Runs {
        let binary = try #require(BuiltProduct.path(named: "workout-outbox-crasher", override: "WORKOUT_OUTBOX_CRASHER"), "workout-outbox-crasher was not built")
        return try await blocking {
            var runs = Runs()
            while runs.runs < killingRuns + 5 {
                runs.runs += 1
                let process = Process()
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = arguments
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                process.standardInput = FileHandle.nullDevice
                try process.run()
                let killing = runs.runs <= killingRuns
                let deadline = Date().addingTimeInterval(killing ? Double.random(in: killAfter) : 120)
                while process.isRunning && Date() < deadline { usleep(2_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                runs.lastOutput = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                if runs.lastOutput.contains("opened:"), !runs.lastOutput.contains(", dropped 0 bytes") { runs.tornTails += 1 }
                if process.terminationReason == .uncaughtSignal {
                    runs.kills += 1
                    continue
                }
                if process.terminationStatus == 0 { return runs }
                guard process.terminationStatus == 2 else {
                    throw CrasherFailure(message: "exit \(process.terminationStatus): \(runs.lastOutput)")
                }
            }
            throw CrasherFailure(message: "not done after \(runs): \(runs.lastOutput)")
        }
    }

    /// Runs the crasher once to its end (at most 120 s).
    ///
    /// - Returns: Its exit status and output.
    static func runOnce(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let binary = try #require(BuiltProduct.path(named: "workout-outbox-crasher", override: "WORKOUT_OUTBOX_CRASHER"), "workout-outbox-crasher was not built")
        let result = try await blocking { try ProcessRunner.run(binary, arguments, timeout: 120) }
        #expect(!result.killed, "\(result)")
        return (result.status, result.output + result.error)
    }

    struct CrasherFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The crasher's workout `index` (as Tests/OutboxCrasher/main.swift makes it).
    static func id(_ index: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-7000-8000-%012x", index))!
    }

    @Test("1,000 offline writes, killed while queueing and while syncing: each on the server exactly once, in order; a refused replay keeps its reason")
    func killedAtRandom() async throws {
        try await CLIHousehold.with { household in
            let client = WorkoutClient(configuration: .init(
                address: ServerAddress(household.address)!, callTimeout: .seconds(30), transportSecurity: .plainTCP()))
            defer { client.close() }
            let signedIn = try await client.login(email: CLIHousehold.ownerEmail, password: CLIHousehold.ownerPassword)
            let token = signedIn.token.base64
            let outbox = household.directory + "/outbox.log"
            // Performed over the last few days, a minute apart, oldest first.
            let base = Int64(Date().timeIntervalSince1970 * 1000) - Int64(Self.count + 60) * 60_000

            let writing = try await Self.runUntilDone(
                ["write", outbox, Self.account, String(Self.count), String(base)], killAfter: 0.01...0.3, killingRuns: 15)
            #expect(writing.kills >= 1, "\(writing)")
            let queued = try Outbox(path: outbox, account: Self.account)
            #expect(queued.entries.map(\.write.recordID) == (0..<Self.count).map(Self.id), "every write queued once, in order")
            queued.close()

            let syncing = try await Self.runUntilDone(
                ["sync", outbox, Self.account, household.address, token], killAfter: 0.05...0.5, killingRuns: 25)
            #expect(syncing.kills >= 1, "\(syncing)")
            print("Outbox crash test: writing took \(writing), syncing \(syncing)")

            var stored: [Workout] = []
            var token_: PageToken?
            for _ in 0..<100 {
                let page = try await client.workoutHistory(pageSize: 100, pageToken: token_)
                stored += page.items
                token_ = page.nextPageToken
                if token_ == nil { break }
            }
            #expect(stored.count == Self.count, "\(writing); \(syncing)")
            #expect(Set(stored.map(\.id)) == Set((0..<Self.count).map(Self.id)), "each write exactly once")
            let inOrder = stored.sorted { $0.revision < $1.revision }.map(\.id)
            #expect(inOrder == (0..<Self.count).map(Self.id), "applied in the order they were made")
            #expect(try await client.profile().totals.totalWorkouts == Self.count)

            // A replay the server refuses (the id of workout 5, other content) keeps its reason
            // across a sync, a kill and a reopening, and is not sent again by itself.
            let refusedOutbox = household.directory + "/refused.log"
            do {
                let box = try Outbox(path: refusedOutbox, account: Self.account)
                var conflicting = try #require(stored.first { $0.id == Self.id(5) })
                conflicting.notes = "other content, same id"
                conflicting.revision = 0
                try box.enqueue(.logWorkout(conflicting))
                box.close()
            }
            let first = try await Self.runOnce(["sync", refusedOutbox, Self.account, household.address, token])
            #expect(first.status == 2 && first.output.contains("\"refused\": 1"), "\(first)")
            let reopened = try Outbox(path: refusedOutbox, account: Self.account)
            let refusal = try #require(reopened.entries.first?.refusal)
            #expect(refusal.code == .alreadyExists)
            #expect(!refusal.message.isEmpty)
            reopened.close()
            let second = try await Self.runOnce(["sync", refusedOutbox, Self.account, household.address, token])
            #expect(second.status == 2 && second.output.contains("\"refused\": 0"), "not sent again: \(second)")
            #expect(try Outbox(path: refusedOutbox, account: Self.account).entries.first?.refusal == refusal)
        }
    }
}
