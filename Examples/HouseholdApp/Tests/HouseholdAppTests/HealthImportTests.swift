import Foundation
import Testing
import WorkoutClient
import WorkoutImport

extension HouseholdAppTests {
    /// An Apple Health `export.xml` imported as an app does it: previewed, imported, and
    /// imported again without storing anything twice.
    @Suite struct HealthImportTests {
        @Test func appleHealthExportImportsOnce() async throws {
            let server = try await TestServer("import")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("import-app")
            defer { app.remove() }
            let client = WorkoutClient(
                configuration: appConfiguration(server.address), trust: appTrust(pinFile: app.file("known_servers"), confirming: true))
            defer { client.close() }
            _ = try await client.login(email: Owner.email, password: Owner.password)

            // Three days ago, 06:00 UTC: every record lies within the last week.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let start = calendar.startOfDay(for: Date().addingTimeInterval(-3 * 86_400)).addingTimeInterval(6 * 3600)
            let path = app.file("export.xml")
            try writeHealthExport(to: path, start: start)
            #expect(ImportFormat.guess(path: path) == .appleHealth)

            let preview = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth, defaultTimeZone: .gmt))
                .preview()
            #expect(preview.dryRun)
            #expect(preview.read["workout"] == 2)
            let report = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth, defaultTimeZone: .gmt))
                .run(client: client) { _ in }
            #expect(report.read["workout"] == 2)
            #expect(report.recordsStored >= 4, "stored: \(report.stored), issues: \(report.issues.map(\.description))")

            // Minutes as seconds, the activity types mapped, energy from the statistics, lb as kg.
            let workouts = try await client.workoutHistory(pageSize: 20).items
            #expect(workouts.count == 2)
            #expect(workouts.contains { $0.type == "running" && $0.durationSeconds == 1950 && $0.caloriesBurned == 310 })
            #expect(workouts.contains { $0.type == "strength" && $0.durationSeconds == 2700 && $0.caloriesBurned == 220 })
            let weights = try await client.weightProgress(pageSize: 20).items.map(\.weightKg)
            #expect(weights.count == 2)
            #expect(weights.contains { abs($0 - 70.3) < 0.001 }, "weights: \(weights)")
            #expect(weights.contains { abs($0 - 69.85) < 0.01 }, "weights: \(weights)")
            let firstDay = LocalDate(start, in: .gmt)
            #expect(try await client.summaries(from: firstDay, to: firstDay).first?.steps == 5500)

            // Imported again: nothing stored twice.
            let again = try await ImportSession(source: ImportSources.open(path: path, format: .appleHealth, defaultTimeZone: .gmt))
                .run(client: client)
            #expect(again.recordsStored == 0)
            #expect(try await client.workoutHistory(pageSize: 20).items.count == 2)
        }
    }
}
