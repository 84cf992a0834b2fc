import Testing
import WorkoutClient
import WorkoutImport
@testable import workout

/// `workout import`'s summary: counts with their nouns in the number they need, and no dry
/// run's words where none was asked for.
@Suite("The import's summary")
struct ImportSummaryTests {
    @Test("One record of a kind is counted in the singular, more in the plural")
    func plurals() {
        var report = ImportReport()
        report.read = ["workout": 1, "meal": 1, "weight": 2, "steps": 1]
        report.stored = report.read
        report.batches = 1
        let lines = ImportCommand.summary(report, file: "sheet.csv", format: .csv)
        #expect(lines.first == "Read 1 workout, 1 meal, 2 weigh-ins, 1 steps report (csv).", "\(lines)")
        #expect(lines.contains("Imported 1 workout, 1 meal, 2 weigh-ins, 1 steps report in 1 batch."), "\(lines)")
    }

    @Test("A file --strict refused reports what was read and skipped, and no dry run")
    func strictRefusal() {
        var report = ImportReport()
        report.read = ["meal": 3]
        report.issueCount = 1
        report.dryRun = true
        let refused = ImportCommand.summary(report, file: "sheet.csv", format: .csv, refusedAsStrict: true)
        #expect(refused == ["Read 3 meals (csv).", "Skipped 1 part of the file (listed on standard error)."])
        let dryRun = ImportCommand.summary(report, file: "sheet.csv", format: .csv)
        #expect(dryRun.last == "Dry run: nothing was written.")
    }
}
