import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
@testable import WorkoutImport
import WorkoutRules

/// Apple Health's export read by the client library and imported through a real server.
@Suite("Apple Health import")
struct AppleHealthImportTests {
    static let activityTypes = HealthWorkoutTypes.table.keys.sorted()

    /// Every event the source yields.
    static func events(_ path: String, format: ImportFormat = .appleHealth) throws -> (records: [ImportRecord], issues: [ImportIssue]) {
        var records: [ImportRecord] = []
        var issues: [ImportIssue] = []
        try ImportSources.open(path: path, format: format).read(progress: ImportByteCounter()) { event in
            switch event {
            case .record(let record, _): records.append(record)
            case .skipped(let issue): issues.append(issue)
            }
        }
        return (records, issues)
    }

    @Test("Every mapped activity type, steps per source and day, weigh-ins in kg and lb, food as meals, zones across DST and the date line")
    func readsEveryKind() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            let fixture = try HealthExportFixture.write(to: path, activityTypes: Self.activityTypes)
            let (records, issues) = try Self.events(path)
            let workouts = records.compactMap { if case .workout(let workout) = $0 { workout } else { nil } }
            let weights = records.compactMap { if case .weight(let entry) = $0 { entry } else { nil } }
            let steps = records.compactMap { if case .steps(let report) = $0 { report } else { nil } }
            let meals = records.compactMap { if case .meal(let meal) = $0 { meal } else { nil } }
            #expect(workouts.count == fixture.workouts && weights.count == fixture.weights)
            #expect(steps.count == fixture.stepsReports && meals.count == fixture.meals)

            // The mapping: each type of the table once, in order, then the four special ones.
            #expect(Array(workouts.prefix(Self.activityTypes.count).map(\.type)) == Self.activityTypes.map { HealthWorkoutTypes.table[$0]! })
            #expect(HealthWorkoutTypes.workoutType(for: "HKWorkoutActivityTypeWheelchairRunPace") == "wheelchair_run_pace")
            #expect(workouts[0].caloriesBurned == 200 && workouts[1].caloriesBurned == 201, "energy from WorkoutStatistics and from the attribute")
            #expect(workouts[0].durationSeconds == 1_800 && workouts[0].timeZone == "Europe/Berlin" && workouts[1].timeZone == "Etc/GMT-1")

            // Steps: summed per source and day, each source its own report.
            for expected in fixture.steps {
                let report = try #require(steps.first { $0.source == expected.source && $0.day.description == expected.day })
                #expect(report.steps == expected.steps, "\(expected)")
            }

            // Weigh-ins: 160 lb in kg.
            #expect(weights.map(\.weightKg) == [72.5, 72.575])

            // Food entries: one meal each, macros together, type from the hint or the hour.
            #expect(meals.map(\.mealType) == [.breakfast, .dinner])
            #expect(meals[0].items == [FoodItem(name: "Porridge", calories: 420, proteinG: 14, carbsG: 61, fatG: 9)])

            // Daylight saving and the date line.
            let special = Array(workouts.suffix(4))
            #expect(special[0].performedAt == Date(timeIntervalSince1970: 1_711_845_000) && special[0].timeZone == "Europe/Berlin")
            #expect(special[1].performedAt == Date(timeIntervalSince1970: 1_711_848_600))
            #expect(special[2].timeZone == "Pacific/Auckland" && LocalDate(special[2].performedAt, in: TimeZone(identifier: "Pacific/Auckland")!).description == "2024-06-15")
            #expect(special[3].timeZone == "Etc/GMT+11" && LocalDate(special[3].performedAt, in: TimeZone(identifier: "Etc/GMT+11")!).description == "2024-06-15")

            // Malformed records: reported at their line, with the reason.
            for (line, reason) in fixture.skippedLines {
                let issue = issues.first { $0.line == line }
                #expect(issue?.reason.contains(reason) == true, "line \(line): \(String(describing: issue))")
            }
            #expect(issues.contains { $0.location == "5 HeartRate records" && $0.reason == "not a kind of data Workout keeps" })
            #expect(issues.count == fixture.skippedLines.count + 1)

            // The same file gives the same ids.
            #expect(try Self.events(path).records == records)
        }
    }

    @Test("A workout's distance, elevation, heart rate and steps come in from the attribute, the statistics and the metadata, in metres")
    func workoutDetail() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5.2" totalDistanceUnit="km" totalEnergyBurned="310" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2024-05-04 07:00:00 +0200" endDate="2024-05-04 07:30:00 +0200">
              <MetadataEntry key="HKElevationAscended" value="4250 cm"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-05-04 07:00:00 +0200" endDate="2024-05-04 07:30:00 +0200" average="151.4" minimum="92" maximum="178" unit="count/min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierStepCount" startDate="2024-05-04 07:00:00 +0200" endDate="2024-05-04 07:30:00 +0200" sum="4870" unit="count"/>
             </Workout>
             <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="1" durationUnit="hr" sourceName="Phone" startDate="2024-05-05 17:00:00 +0200" endDate="2024-05-05 18:00:00 +0200">
              <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceCycling" startDate="2024-05-05 17:00:00 +0200" endDate="2024-05-05 18:00:00 +0200" sum="15.5" unit="mi"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-05-05 17:00:00 +0200" endDate="2024-05-05 18:00:00 +0200" average="400" maximum="410" unit="count/min"/>
             </Workout>
            </HealthData>
            """.write(toFile: path, atomically: true, encoding: .utf8)
            let workouts = try Self.events(path).records.compactMap { if case .workout(let workout) = $0 { workout } else { nil } }
            #expect(workouts.count == 2)
            #expect(workouts[0].distanceM == 5_200 && workouts[0].elevationGainM == 42.5)
            #expect(workouts[0].averageHeartRate == 151 && workouts[0].maxHeartRate == 178 && workouts[0].steps == 4_870)
            // 15.5 miles; a heart rate out of bounds is left out, not the workout.
            #expect(workouts[1].distanceM == 24_945 && workouts[1].averageHeartRate == nil && workouts[1].maxHeartRate == nil)
        }
    }

    @Test("A truncated file, bytes that are not UTF-8, and a file that is not XML are reported by line; what came before is read")
    func badFiles() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            _ = try HealthExportFixture.write(to: path, activityTypes: Self.activityTypes)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let (complete, _) = try Self.events(path)

            // Cut off in the middle of the workouts.
            let cut = directory + "/cut.xml"
            try whole.prefix(whole.count * 3 / 4).write(to: URL(fileURLWithPath: cut))
            let (partial, cutIssues) = try Self.events(cut)
            #expect(!partial.isEmpty && partial.count < complete.count)
            #expect(cutIssues.contains { $0.reason.contains("cut off") || $0.reason.contains("not well-formed") }, "\(cutIssues)")

            // An invalid UTF-8 byte inside an attribute.
            var damaged = whole
            let marker = Data("Pedometer+".utf8)
            let at = try #require(damaged.range(of: marker))
            damaged[at.lowerBound] = 0xFF
            let broken = directory + "/broken.xml"
            try damaged.write(to: URL(fileURLWithPath: broken))
            let (_, encodingIssues) = try Self.events(broken)
            let encoding = try #require(encodingIssues.first { $0.reason.contains("not well-formed") })
            #expect((encoding.line ?? 0) > 1)

            // Not an export at all.
            let text = directory + "/notes.xml"
            try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: text))
            let (none, textIssues) = try Self.events(text)
            #expect(none.isEmpty && textIssues.count == 1)
        }
    }

    @Test("The Health app's export.zip is read as its export.xml", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func zip() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            _ = try HealthExportFixture.write(to: path, activityTypes: Self.activityTypes)
            let zip = directory + "/export.zip"
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            python.arguments = ["-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as z:
                    z.writestr('apple_health_export/export_cda.xml', '<HealthData/>')
                    z.write(sys.argv[1], 'apple_health_export/export.xml')
                """, path, zip]
            try python.run()
            python.waitUntilExit()
            #expect(python.terminationStatus == 0)
            #expect(ImportFormat.guess(path: zip) == .appleHealth)
            let fromZip = try Self.events(zip)
            let fromXML = try Self.events(path)
            #expect(fromZip.records == fromXML.records && fromZip.issues == fromXML.issues)
        }
    }

    /// What a member's data is, without what differs between two households or two ways of
    /// logging (revisions, creation times).
    static func state(_ client: WorkoutClient) async throws -> [String] {
        var workouts: [Workout] = [], meals: [Meal] = [], weights: [WeightEntry] = [], steps: [StepsDay] = []
        for try await chunk in client.export() {
            workouts += chunk.workouts
            meals += chunk.meals
            weights += chunk.weights
            steps += chunk.steps
        }
        for index in workouts.indices { workouts[index].revision = 0; workouts[index].createdAt = nil; workouts[index].updatedAt = nil }
        for index in meals.indices { meals[index].revision = 0; meals[index].createdAt = nil; meals[index].updatedAt = nil }
        for index in weights.indices { weights[index].revision = 0; weights[index].createdAt = nil }
        for index in steps.indices {
            steps[index].revision = 0
            for source in steps[index].sources.indices { steps[index].sources[source].revision = 0 }
        }
        let profile = try await client.profile()
        let achievements = try await client.achievements().map { "\($0.id) \($0.unlocked) \($0.points) \($0.progress)" }
        return ["\(workouts)", "\(meals)", "\(weights)", "\(steps)", "\(profile.totals)", "\(achievements)", "\(profile.profile.weightKg ?? 0)"]
    }

    @Test("Imported twice: nothing changes the second time; stopped at a random batch and run again: the same as one run")
    func idempotentAndResumable() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            let fixture = try HealthExportFixture.write(to: path, activityTypes: Self.activityTypes)
            let total = fixture.workouts + fixture.weights + fixture.stepsReports + fixture.meals
            let once = try await LiveServer.run { live in
                let client = live.client()
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                let first = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth), options: ImportOptions(recordsPerBatch: 7))
                    .run(client: client)
                #expect(first.recordsStored == total && first.unchanged == 0 && first.batches == (total + 6) / 7)
                #expect(first.totals?.totalWorkouts == fixture.workouts)
                let state = try await Self.state(client)
                let revision = try await client.profile().revision
                let second = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth), options: ImportOptions(recordsPerBatch: 7))
                    .run(client: client)
                #expect(second.recordsStored == 0 && second.unchanged == total && second.unlocked.isEmpty)
                #expect(try await client.profile().revision == revision, "the second import changed nothing")
                #expect(try await Self.state(client) == state)
                return state
            }
            let resumed = try await LiveServer.run { live in
                let client = live.client()
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                var generator = SystemRandomNumberGenerator()
                let stopAfter = Int.random(in: 1...((total + 6) / 7 - 1), using: &generator)
                let session = ImportSession(source: try ImportSources.open(path: path, format: .appleHealth), options: ImportOptions(recordsPerBatch: 7))
                let stopped = try await session.run(client: client) { progress in
                    if progress.recordsSent >= stopAfter * 7 { session.cancel() }
                }
                #expect(stopped.stopped && stopped.recordsStored < total, "stopped after \(stopAfter) batches: \(stopped.recordsStored)")
                let rest = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth), options: ImportOptions(recordsPerBatch: 7))
                    .run(client: client)
                #expect(!rest.stopped && stopped.recordsStored + rest.recordsStored == total && rest.unchanged == stopped.recordsStored)
                return try await Self.state(client)
            }
            #expect(resumed == once)
        }
    }

    @Test("Another device's Watch sees the import as changes, live: every record, and the totals after the last batch", .timeLimit(.minutes(1)))
    func watchSeesTheImport() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            let fixture = try HealthExportFixture.write(to: path, activityTypes: Self.activityTypes)
            try await LiveServer.run { live in
                let importer = live.client(device: "laptop")
                let signedIn = try await importer.login(email: ownerEmail, password: ownerPassword)
                let phone = live.client(device: "phone")
                _ = try await phone.login(email: ownerEmail, password: ownerPassword)
                let watching = Task {
                    var seen = 0
                    var totals: Totals?
                    for try await event in phone.watch(since: signedIn.revision) {
                        seen += event.changes.count
                        if let eventTotals = event.totals { totals = eventTotals }
                        if totals?.totalWorkouts == fixture.workouts, seen >= fixture.workouts + fixture.meals + fixture.weights { break }
                    }
                    return (seen, totals)
                }
                try await Task.sleep(for: .milliseconds(200))
                let report = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth), options: ImportOptions(recordsPerBatch: 25))
                    .run(client: importer)
                let (seen, totals) = try await watching.value
                #expect(seen >= fixture.workouts + fixture.meals + fixture.weights, "\(seen) changes")
                #expect(totals == report.totals)
                phone.close()
                importer.close()
            }
        }
    }

    @Test("Totals, streaks, points, level and achievements are those of logging the same records live")
    func sameAsLive() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/export.xml"
            _ = try HealthExportFixture.write(to: path, activityTypes: Self.activityTypes)
            let (records, _) = try Self.events(path)
            let live = try await LiveServer.run { server in
                let client = server.client()
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                for record in records {
                    switch record {
                    case .workout(let workout): _ = try await client.logWorkout(workout)
                    case .meal(let meal): _ = try await client.logMeal(meal)
                    case .weight(let entry): _ = try await client.logWeight(entry)
                    case .steps(let report): _ = try await client.reportSteps(report)
                    }
                }
                return try await Self.state(client)
            }
            let imported = try await LiveServer.run { server in
                let client = server.client()
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                _ = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth), options: ImportOptions(recordsPerBatch: 50))
                    .run(client: client)
                return try await Self.state(client)
            }
            #expect(imported == live)
            #expect(live[5].contains("workout_50 true") && live[5].contains("streak_30 true"))
        }
    }
}
