import ArgumentParser
import Foundation
import Observation
import Synchronization
import WorkoutBenchKit
import WorkoutClient
import WorkoutSession

/// `workout-session-bench`: the session model against a real `workoutd` (a child process) over
/// loopback.
///
/// - **Cold start**: a member with a full screen of data (20 recent workouts, today's meals, a
///   year of weigh-ins, achievements, the week) saves a snapshot; then, again and again, a new
///   model is made over it: the time until it shows content (the initializer reads, checks and
///   decodes the snapshot, and publishes), and the time until it is current (`resume()`, the
///   Watch from the snapshot's revision, caught up).
/// - **Write to another device**: one model is live on a "phone"; a "laptop" client logs a
///   workout; the time from the laptop's call to the phone's model showing it (Observation),
///   through the server's Watch.
///
///     workout-session-bench --cold-starts 200 --writes 500
@main
struct SessionBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout-session-bench",
        abstract: "Measure the session model: cold start from its snapshot, and a write on one device shown on another through Watch.")

    @Option(help: "Cold starts from the snapshot to time (1...10000).")
    var coldStarts = 200

    @Option(help: "Writes on the laptop to time until the phone's model shows them (1...10000).")
    var writes = 500

    @Option(help: "The workoutd executable (default: the one next to this executable).")
    var workoutd: String?

    static let email = "bench@example.com"
    static let password = "correct horse battery"
    static let zone = "Europe/Berlin"

    func validate() throws {
        guard (1...10_000).contains(coldStarts), (1...10_000).contains(writes) else {
            throw ValidationError("--cold-starts and --writes must be 1...10000")
        }
    }

    func run() async throws {
        guard let workoutd = workoutd ?? WorkoutdLocator.besideThisExecutable() else {
            throw ValidationError("no workoutd next to this executable; pass --workoutd")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("session-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Self.createOwner(workoutd: workoutd, data: work + "/data")
        let server = try EmbeddedServer(workoutd: workoutd, dataDirectory: work + "/data", workDirectory: work, connections: 8)
        defer { server.stop() }
        try await Self.measure(host: server.address.host, port: server.address.port, work: work, coldStarts: coldStarts, writes: writes)
    }

    /// Creates the member with `workoutd create-owner`.
    static func createOwner(workoutd: String, data: String) throws {
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: workoutd)
        owner.arguments = ["create-owner", "--data-dir", data, "--email", email, "--first-name", "Bench", "--time-zone", zone, "--password-stdin"]
        let input = Pipe()
        owner.standardInput = input
        owner.standardOutput = FileHandle.nullDevice
        try owner.run()
        input.fileHandleForWriting.write(Data("\(password)\n".utf8))
        try input.fileHandleForWriting.close()
        owner.waitUntilExit()
        guard owner.terminationStatus == 0 else { throw ValidationError("workoutd create-owner failed") }
    }

    @MainActor
    static func measure(host: String, port: Int, work: String, coldStarts: Int, writes: Int) async throws {
        // The embedded workoutd serves plain TCP on loopback (`--transport plain`).
        func client(_ device: String, token: SessionToken? = nil) -> WorkoutClient {
            WorkoutClient(configuration: .init(address: .init(host: host, port: port), deviceName: device, transportSecurity: .plainTCP()), sessionToken: token)
        }
        // A full screen of data.
        let laptop = client("laptop")
        defer { laptop.close() }
        _ = try await laptop.login(email: email, password: password)
        let now = Date()
        for index in 0..<40 {
            _ = try await laptop.logWorkout(Workout(type: "running", durationSeconds: 1_800, caloriesBurned: 300,
                                                    performedAt: now.addingTimeInterval(-Double(index) * 20_000), timeZone: zone))
        }
        for index in 0..<6 {
            _ = try await laptop.logMeal(Meal(mealType: .snack, eatenAt: now.addingTimeInterval(-Double(index) * 60), timeZone: zone,
                                              items: (0..<4).map { FoodItem(name: "item \($0)", calories: 100, proteinG: 5, carbsG: 10, fatG: 3) }))
        }
        for index in 0..<365 {
            _ = try await laptop.logWeight(WeightEntry(weightKg: 70 + Double(index % 7) / 10, measuredAt: now.addingTimeInterval(-Double(index) * 86_400 - 3_600)))
        }

        // The phone loads and saves its snapshot.
        let snapshotPath = work + "/session.snapshot"
        let account = "\(email) on \(host):\(port)"
        let phone = client("phone")
        let first = WorkoutSession(client: phone, storage: .init(snapshotPath: snapshotPath, account: account))
        try await first.login(email: email, password: password)
        try await first.waitUntilLive(timeout: .seconds(30))
        try await first.saveSnapshot()
        first.close()
        let token = phone.sessionToken!
        phone.close()
        let snapshotBytes = (try? FileManager.default.attributesOfItem(atPath: snapshotPath)[.size] as? NSNumber)?.intValue ?? 0

        // Cold starts.
        var firstContent: [Double] = []
        var current: [Double] = []
        for _ in 0..<coldStarts {
            let started = ContinuousClock.now
            let session = WorkoutSession(client: client("phone", token: token), storage: .init(snapshotPath: snapshotPath, account: account))
            let shown = ContinuousClock.now
            guard session.recentWorkouts.count == WorkoutSession.recentWorkoutLimit, session.isStale else {
                throw ValidationError("the model did not start from its snapshot")
            }
            try await session.resume()
            try await session.waitUntilLive(timeout: .seconds(30))
            let live = ContinuousClock.now
            firstContent.append((shown - started).milliseconds)
            current.append((live - started).milliseconds)
            session.close()
            session.client.close()
        }

        // A write on the laptop, shown on the phone.
        let watcher = WorkoutSession(client: client("phone", token: token))
        try await watcher.resume()
        try await watcher.waitUntilLive(timeout: .seconds(30))
        var shownOnPhone: [Double] = []
        for index in 0..<writes {
            let workout = Workout(type: "cycling", durationSeconds: 600, performedAt: Date().addingTimeInterval(Double(index) * 0.001), timeZone: zone)
            let started = ContinuousClock.now
            async let logged = laptop.logWorkout(workout)
            await waitUntil(watcher) { watcher.recentWorkouts.first?.id == workout.id }
            shownOnPhone.append((ContinuousClock.now - started).milliseconds)
            _ = try await logged
        }
        watcher.close()
        watcher.client.close()

        print("""
            session model over workoutd on loopback (snapshot \(snapshotBytes) bytes: 40 workouts logged, 6 meals today, 365 weigh-ins, \
            \(WorkoutSession.recentWorkoutLimit)-workout list, achievements, week)
            cold start, first content (init from the snapshot), \(coldStarts) runs: \(summary(firstContent))
            cold start, caught up and live (init + resume + Watch from the snapshot's revision), \(coldStarts) runs: \(summary(current))
            write on the laptop shown on the phone's model through Watch, \(writes) writes: \(summary(shownOnPhone))
            """)
    }

    /// `p50 … ms, p99 … ms, max … ms`.
    static func summary(_ samples: [Double]) -> String {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", percentile(0.5), percentile(0.99), sorted.last ?? 0)
    }

    /// Waits until `condition` holds, woken by Observation.
    @MainActor
    static func waitUntil(_ session: WorkoutSession, _ condition: @escaping @MainActor () -> Bool) async {
        while !condition() {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let once = Once()
                let holds = withObservationTracking { condition() } onChange: {
                    if once.first() { continuation.resume() }
                }
                if holds, once.first() { continuation.resume() }
            }
        }
    }
}

/// True the first time it is asked, false after: a continuation resumed once from two places.
final class Once: Sendable {
    private let asked = Mutex(false)

    /// Whether this is the first call.
    func first() -> Bool {
        asked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
