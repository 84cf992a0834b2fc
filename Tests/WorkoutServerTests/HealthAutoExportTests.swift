import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// Health Auto Export's REST JSON through the real server: a fixture made here (three days,
/// steps from a phone and a watch, weight in pounds, nutrition, two workouts, a metric the
/// server does not keep), posted twice with a device token, stored once, and counted as if the
/// same records had been logged live.
@Suite("Health Auto Export ingest")
struct HealthAutoExportTests {
    /// The fixture's days (local, +01:00) and what they hold.
    static let days = ["2026-11-02", "2026-11-03", "2026-11-04"]
    static let offset = "+0100"

    static func stamp(_ day: String, _ hour: Int, _ minute: Int = 0) -> String {
        String(format: "%@ %02d:%02d:00 %@", day, hour, minute, offset)
    }

    /// Milliseconds of `stamp`.
    static func milliseconds(_ day: String, _ hour: Int, _ minute: Int = 0) -> Int64 {
        let parts = day.split(separator: "-").map { Int($0)! }
        var components = DateComponents()
        components.year = parts[0]
        components.month = parts[1]
        components.day = parts[2]
        components.hour = hour
        components.minute = minute
        components.timeZone = TimeZone(secondsFromGMT: 3_600)
        return Int64(Calendar(identifier: .gregorian).date(from: components)!.timeIntervalSince1970 * 1_000)
    }

    /// Phone steps per hour 8...19 and watch steps per hour 8...19, by day: the watch counts more.
    static func steps(_ dayIndex: Int, watch: Bool) -> Int { watch ? 450 + dayIndex * 10 : 400 + dayIndex * 10 }

    static var fixture: [UInt8] {
        var stepPoints: [String] = []
        for (index, day) in days.enumerated() {
            for hour in 8...19 {
                stepPoints.append(#"{"qty": \#(steps(index, watch: false)), "date": "\#(stamp(day, hour))", "source": "Mia's iPhone"}"#)
                stepPoints.append(#"{"qty": \#(steps(index, watch: true)), "date": "\#(stamp(day, hour, 30))", "source": "Mia's Apple Watch"}"#)
            }
        }
        let weights = #"{"qty": 158.73, "date": "\#(stamp(days[0], 7))", "source": "Scale"}, {"qty": 157.63, "date": "\#(stamp(days[2], 7))", "source": "Scale"}"#
        let breakfast = stamp(days[1], 8)
        let dinner = stamp(days[1], 19)
        return Array("""
        {"data": {
          "metrics": [
            {"name": "step_count", "units": "count", "data": [\(stepPoints.joined(separator: ","))]},
            {"name": "weight_body_mass", "units": "lb", "data": [\(weights)]},
            {"name": "dietary_energy", "units": "kcal", "data": [{"qty": 420, "date": "\(breakfast)", "source": "MyFitnessPal"}, {"qty": 760, "date": "\(dinner)", "source": "MyFitnessPal"}]},
            {"name": "protein", "units": "g", "data": [{"qty": 21, "date": "\(breakfast)", "source": "MyFitnessPal"}, {"qty": 44, "date": "\(dinner)", "source": "MyFitnessPal"}]},
            {"name": "carbohydrates", "units": "g", "data": [{"qty": 55, "date": "\(breakfast)", "source": "MyFitnessPal"}]},
            {"name": "total_fat", "units": "g", "data": [{"qty": 12.5, "date": "\(breakfast)", "source": "MyFitnessPal"}]},
            {"name": "heart_rate", "units": "count/min", "data": [{"Min": 52, "Avg": 61, "Max": 88, "date": "\(stamp(days[0], 9))"}]}
          ],
          "workouts": [
            {"id": "A1B2", "name": "Running", "start": "\(stamp(days[0], 18))", "end": "\(stamp(days[0], 18, 30))", "duration": 1800, "activeEnergyBurned": {"qty": 1255.2, "units": "kJ"}, "distance": {"qty": 3.5, "units": "mi"}},
            {"id": "C3D4", "name": "Traditional Strength Training", "start": "\(stamp(days[2], 17))", "end": "\(stamp(days[2], 17, 45))", "duration": 2700, "activeEnergyBurned": {"qty": 210, "units": "kcal"}}
          ]
        }}
        """.utf8)
    }

    /// The same records, logged live by `client`.
    static func logLive(_ client: TestConnection) throws {
        for (index, day) in days.enumerated() {
            for (source, watch) in [("Mia's iPhone", false), ("Mia's Apple Watch", true)] {
                var report = Workout_V1_ReportStepsRequest()
                let parts = day.split(separator: "-").map { Int32($0)! }
                report.report.day.year = parts[0]
                report.report.day.month = parts[1]
                report.report.day.day = parts[2]
                report.report.source = source
                report.report.steps = UInt32(steps(index, watch: watch) * 12)
                report.report.reportedAtMs = milliseconds(day, 19, watch ? 30 : 0)
                _ = try client.call(MethodCatalog.reportSteps, report)
            }
        }
        for (day, pounds) in [(days[0], 158.73), (days[2], 157.63)] {
            var weight = Workout_V1_LogWeightRequest()
            weight.entry.id = newID()
            weight.entry.weightKg = (pounds * 0.45359237 * 100).rounded() / 100
            weight.entry.measuredAtMs = milliseconds(day, 7)
            _ = try client.call(MethodCatalog.logWeight, weight)
        }
        try logMeals(client)
        for (day, hour, type, seconds, kcal) in [(days[0], 18, "running", UInt32(1_800), 300.0), (days[2], 17, "strength", 2_700, 210)] {
            var workout = Workout_V1_LogWorkoutRequest()
            workout.workout = WorkoutServerTests.workout(type: type, at: milliseconds(day, hour))
            workout.workout.durationSeconds = seconds
            workout.workout.caloriesBurned = kcal
            _ = try client.call(MethodCatalog.logWorkout, workout)
        }
    }

    /// The fixture's breakfast and dinner of the second day, logged live by `client` (both
    /// phones' fixtures hold the same two meals).
    static func logMeals(_ client: TestConnection) throws {
        for (hour, kcal, protein, carbs, fat, type) in [(8, 420.0, 21.0, 55.0, 12.5, Workout_V1_MealType.breakfast), (19, 760, 44, 0, 0, .dinner)] {
            var meal = Workout_V1_LogMealRequest()
            meal.meal.id = newID()
            meal.meal.mealType = type
            meal.meal.eatenAtMs = milliseconds(days[1], hour)
            var item = Workout_V1_FoodItem()
            item.name = "Food"
            item.calories = kcal
            item.proteinG = protein
            item.carbsG = carbs
            item.fatG = fat
            meal.meal.items = [item]
            _ = try client.call(MethodCatalog.logMeal, meal)
        }
    }

    static func summaries(_ client: TestConnection) throws -> [Workout_V1_PeriodSummary] {
        var request = Workout_V1_SummariesRequest()
        let first = days[0].split(separator: "-").map { Int32($0)! }
        let last = days[2].split(separator: "-").map { Int32($0)! }
        request.fromDay.year = first[0]; request.fromDay.month = first[1]; request.fromDay.day = first[2]
        request.toDay.year = last[0]; request.toDay.month = last[1]; request.toDay.day = last[2]
        request.granularity = .day
        return try client.call(MethodCatalog.summaries, request).periods
    }

    @Test("Posted twice with an import token: stored once, unknown metrics counted, the same figures as logging live", arguments: [false, true])
    func ingestTwice(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                var zone = Workout_V1_UpdateProfileRequest()
                zone.timeZone = "Europe/Berlin"
                _ = try owner.call(MethodCatalog.updateProfile, zone)
                var create = Workout_V1_CreateDeviceTokenRequest()
                create.name = "Health Auto Export"
                create.scopes = [.import]
                let token = try owner.call(MethodCatalog.createDeviceToken, create).token

                let phone = try HTTPTestClient(port: port)
                phone.token = token
                struct Answer: Decodable, Equatable {
                    var workouts: Int, meals: Int, weightEntries: Int, stepsReports: Int, stepsSamples: Int, unchanged: Int
                    var skipped: [String: Int]
                }
                let first = try phone.request("POST", "/ingest/health-auto-export", body: Self.fixture)
                #expect(first.status == 200, "\(first.text)")
                let stored = try JSONDecoder().decode(Answer.self, from: Data(first.body))
                // 72 step samples (12 hours × 2 sources × 3 days), summed into 6 sources' days.
                #expect(stored == Answer(workouts: 2, meals: 2, weightEntries: 2, stepsReports: 6, stepsSamples: 72, unchanged: 0, skipped: ["heart_rate": 1]))
                let again = try JSONDecoder().decode(Answer.self, from: Data(phone.request("POST", "/ingest/health-auto-export", body: Self.fixture).body))
                #expect(again == Answer(workouts: 0, meals: 0, weightEntries: 0, stepsReports: 0, stepsSamples: 0, unchanged: 78, skipped: ["heart_rate": 1]))

                // A read token may not post; nor may nobody.
                create.scopes = [.read]
                let reader = try HTTPTestClient(port: port)
                reader.token = try owner.call(MethodCatalog.createDeviceToken, create).token
                #expect(try reader.request("POST", "/ingest/health-auto-export", body: Self.fixture).status == 403)
                #expect(try HTTPTestClient(port: port).request("POST", "/ingest/health-auto-export", body: Self.fixture).status == 401)
                #expect(try phone.request("POST", "/ingest/health-auto-export", body: Array("[1, 2]".utf8)).status == 400)

                // The same records logged live by another member in the same zone.
                let (live, _) = try TestConnection.member(port: port, invitedBy: owner, email: "live@example.com")
                var liveZone = zone
                liveZone.timeZone = "Europe/Berlin"
                _ = try live.call(MethodCatalog.updateProfile, liveZone)
                try Self.logLive(live)

                let imported = try Self.summaries(owner)
                let logged = try Self.summaries(live)
                #expect(imported.map(\.steps) == [5_400, 5_520, 5_640])
                #expect(imported.map(\.steps) == logged.map(\.steps))
                #expect(imported.map(\.caloriesEaten) == logged.map(\.caloriesEaten))
                #expect(imported.map(\.caloriesBurned) == logged.map(\.caloriesBurned))
                #expect(imported.map(\.workouts) == logged.map(\.workouts))
                #expect(imported.map(\.activeSeconds) == logged.map(\.activeSeconds))
                let ownerTotals = try owner.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).totals
                let liveTotals = try live.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).totals
                #expect(ownerTotals.totalWorkouts == 2 && ownerTotals.totalWorkouts == liveTotals.totalWorkouts)
                #expect(ownerTotals.totalCaloriesBurned == liveTotals.totalCaloriesBurned)
                // Version 2's distance: 3.5 mi in metres, on the running workout only.
                let distances = try owner.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts.map(\.distanceM)
                #expect(distances.sorted() == [0, 5_633], "\(distances)")
                let weights = try owner.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest()).entries.map(\.weightKg)
                #expect(weights == [72.0, 71.5])
                #expect(weights == (try live.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest()).entries.map(\.weightKg)))
            }
        }
    }

    /// An HTTP client posting as `owner`'s phone: Health Auto Export with an import token.
    static func phone(owner: TestConnection, port: Int) throws -> HTTPTestClient {
        var create = Workout_V1_CreateDeviceTokenRequest()
        create.name = "Health Auto Export"
        create.scopes = [.import]
        let phone = try HTTPTestClient(port: port)
        phone.token = try owner.call(MethodCatalog.createDeviceToken, create).token
        return phone
    }

    /// A body holding only `step_count` points: (hour, minute, steps, source) on `day`.
    static func stepsBody(_ day: String, _ points: [(Int, Int, Int, String)]) -> [UInt8] {
        let data = points.map { #"{"qty": \#($0.2), "date": "\#(stamp(day, $0.0, $0.1))", "source": "\#($0.3)"}"# }
        return Array(#"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [\#(data.joined(separator: ","))]}]}}"#.utf8)
    }

    @Test("Partial pushes add up: a later sample alone adds to the day; three partial pushes in any order and an overlapping whole push equal the samples sent once; a corrected sample replaces only itself; a joined source is one of its own")
    func partialPushes() async throws {
        try await withServer(tls: false) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                var zone = Workout_V1_UpdateProfileRequest()
                zone.timeZone = "Europe/Berlin"
                _ = try owner.call(MethodCatalog.updateProfile, zone)
                let phone = try Self.phone(owner: owner, port: port)
                func post(_ body: [UInt8]) throws {
                    let answer = try phone.request("POST", "/ingest/health-auto-export", body: body)
                    #expect(answer.status == 200, "\(answer.text)")
                }
                func daySteps(_ day: String) throws -> (total: UInt32, sources: [String: UInt32]) {
                    var request = Workout_V1_SummariesRequest()
                    let parts = day.split(separator: "-").map { Int32($0)! }
                    request.fromDay.year = parts[0]; request.fromDay.month = parts[1]; request.fromDay.day = parts[2]
                    request.toDay = request.fromDay
                    request.granularity = .day
                    let total = try owner.call(MethodCatalog.summaries, request).periods.first?.steps ?? 0
                    var changes = Workout_V1_ChangesRequest()
                    changes.pageSize = 500
                    var sources: [String: UInt32] = [:]
                    for change in try owner.call(MethodCatalog.changes, changes).changes {
                        if case .steps(let stepsDay) = change.item, stepsDay.day == request.fromDay {
                            for report in stepsDay.sources { sources[report.source] = report.steps }
                        }
                    }
                    return (total, sources)
                }

                // The newcomer's day: 6,701 steps by the evening, then a push of only 20:00's 800.
                let first = "2026-11-02"
                try post(Self.stepsBody(first, [(8, 0, 2_500, "iPhone"), (12, 0, 3_001, "iPhone"), (18, 0, 1_200, "iPhone")]))
                #expect(try daySteps(first).total == 6_701)
                try post(Self.stepsBody(first, [(20, 0, 800, "iPhone")]))
                #expect(try daySteps(first).total == 7_501)

                // A day in three partial pushes, last first, then the whole day overlapping them all.
                let second = "2026-11-03"
                let samples: [(Int, Int, Int, String)] = (7...21).map { ($0, 0, 300 + $0 * 11, "iPhone") }
                let whole = samples.reduce(0) { $0 + $1.2 }
                for part in [Array(samples[10...]), Array(samples[..<5]), Array(samples[5..<10])] { try post(Self.stepsBody(second, part)) }
                #expect(try daySteps(second).total == UInt32(whole))
                try post(Self.stepsBody(second, samples))
                try post(Self.stepsBody(second, Array(samples[3...6])))
                #expect(try daySteps(second).total == UInt32(whole))
                // The phone corrects 12:00's sample: only it changes.
                try post(Self.stepsBody(second, [(12, 0, 1_000, "iPhone")]))
                #expect(try daySteps(second).total == UInt32(whole - (300 + 12 * 11) + 1_000))

                // The app's merge of phone and watch is a source of its own: the day is the largest.
                let third = "2026-11-04"
                try post(Self.stepsBody(third, [(9, 0, 4_000, "iPhone"), (9, 30, 4_500, "Apple Watch"), (9, 0, 5_200, "iPhone|Apple Watch")]))
                try post(Self.stepsBody(third, [(15, 0, 1_000, "iPhone|Apple Watch")]))
                let merged = try daySteps(third)
                #expect(merged.total == 6_200)
                #expect(merged.sources == ["iPhone": 4_000, "Apple Watch": 4_500, "iPhone|Apple Watch": 6_200], "\(merged.sources)")
            }
        }
    }

    @Test("Version 2 workouts with workout metrics are taken whole: energy from its samples (an empty list too), heart rate, climb and steps; the Workout app's names are their kinds; ISO 8601 dates count")
    func versionTwoWorkouts() async throws {
        try await withServer(tls: false) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                let phone = try Self.phone(owner: owner, port: port)
                let day = Self.days[0]
                let body = Array("""
                {"data": {
                  "metrics": [{"name": "step_count", "units": "count", "data": [
                    {"qty": 640, "date": "2026-11-02T07:00:00+01:00", "source": "iPhone"},
                    {"qty": 360, "date": "2026-11-02T06:30:00.250Z", "source": "iPhone"}]}],
                  "workouts": [
                    {"id": "R1", "name": "Outdoor Run", "start": "\(Self.stamp(day, 18))", "end": "\(Self.stamp(day, 18, 40))", "duration": 2400,
                     "location": "Outdoor", "isIndoor": false,
                     "activeEnergy": [{"date": "\(Self.stamp(day, 18, 1))", "qty": 150.5, "units": "kcal", "source": "Apple Watch"},
                                      {"date": "\(Self.stamp(day, 18, 2))", "qty": 209.2, "units": "kJ", "source": "Apple Watch"}, null, {"qty": "x"}],
                     "heartRate": {"min": {"qty": 101, "units": "bpm"}, "avg": {"qty": 148.4, "units": "bpm"}, "max": {"qty": 171, "units": "bpm"}},
                     "elevationUp": {"qty": 164, "units": "ft"},
                     "stepCount": [{"date": "\(Self.stamp(day, 18, 1))", "qty": 3000, "units": "count"}, {"date": "\(Self.stamp(day, 18, 2))", "qty": 2100, "units": "count"}],
                     "route": [{"latitude": 52.5, "longitude": 13.4}]},
                    {"id": "W1", "name": "Indoor Walk", "start": "\(Self.stamp(day, 12))", "duration": 900, "activeEnergy": []},
                    {"id": "S1", "name": "Pool Swim", "start": "\(Self.stamp(day, 7))", "duration": 1200, "activeEnergyBurned": {"qty": 250, "units": "kcal"},
                     "maxHeartRate": {"qty": 120, "units": "bpm"}, "avgHeartRate": {"qty": 130, "units": "bpm"}}
                  ]
                }}
                """.utf8)
                let answer = try phone.request("POST", "/ingest/health-auto-export", body: body)
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.text.contains(#""workouts":3"#) && answer.text.contains(#""stepsSamples":2"#), "\(answer.text)")
                let workouts = try owner.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts
                let run = try #require(workouts.first { $0.durationSeconds == 2_400 })
                #expect(run.workoutType == "running")
                #expect(run.caloriesBurned == 200.5)            // 150.5 kcal + 209.2 kJ (50 kcal)
                #expect(run.averageHeartRate == 148 && run.maxHeartRate == 171)
                #expect(run.elevationGainM == 50 && run.steps == 5_100)
                #expect(run.location == .outdoor)
                let walk = try #require(workouts.first { $0.durationSeconds == 900 })
                #expect(walk.workoutType == "walking" && walk.caloriesBurned == 0 && walk.location == .indoor)
                // A maximum below the average is not a pair the server keeps: neither is.
                let swim = try #require(workouts.first { $0.durationSeconds == 1_200 })
                #expect(swim.workoutType == "swimming" && swim.caloriesBurned == 250 && swim.averageHeartRate == 0 && swim.maxHeartRate == 0)
                #expect(swim.location == .unspecified)
                // The two ISO 8601 points: 07:00 in +01:00 and 06:30Z, both on 2 November.
                var summaries = Workout_V1_SummariesRequest()
                summaries.fromDay.year = 2026; summaries.fromDay.month = 11; summaries.fromDay.day = 2
                summaries.toDay = summaries.fromDay
                summaries.granularity = .day
                #expect(try owner.call(MethodCatalog.summaries, summaries).periods.first?.steps == 1_000)
            }
        }
    }

    @Test("A workout already stored under its id with other content is kept as stored and named; the rest of the push goes in")
    func changedWorkoutKept() async throws {
        try await withServer(tls: false) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                let phone = try Self.phone(owner: owner, port: port)
                let day = Self.days[0]
                func body(_ extra: String, workouts: String = "") -> [UInt8] {
                    Array(#"{"data": {"workouts": [{"id": "R1", "name": "Running", "start": "\#(Self.stamp(day, 18))", "end": "\#(Self.stamp(day, 18, 40))", "duration": 2400\#(extra)}\#(workouts)]}}"#.utf8)
                }
                #expect(try phone.request("POST", "/ingest/health-auto-export", body: body("")).status == 200)
                // The app's next export says more of the same run (as a newer server reads more
                // of its fields), and holds a new walk.
                let walk = #", {"id": "W2", "name": "Walking", "start": "\#(Self.stamp(day, 12))", "duration": 900}"#
                let answer = try phone.request("POST", "/ingest/health-auto-export", body: body(#", "isIndoor": true"#, workouts: walk))
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.text.contains(#""workouts":1"#) && answer.text.contains(#""refused":{"workouts":1}"#), "\(answer.text)")
                #expect(answer.text.contains("workouts[0]: already stored with other content"), "\(answer.text)")
                let stored = try owner.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts
                #expect(stored.count == 2 && stored.first { $0.durationSeconds == 2_400 }?.location == .unspecified)
            }
        }
    }
}
