import ArgumentParser
import Foundation
import SyntheticHealthExport
import WorkoutBenchKit
import WorkoutClient
import WorkoutImport
#if canImport(Glibc)
import Glibc
#endif

/// `workout-import-bench`: how fast the importer reads Apple Health exports and how much memory
/// it needs, and how fast a history goes in end to end through a `workoutd`.
///
///     workout-import-bench generate --years 10 /tmp/10y.xml          # ten years of one member
///     workout-import-bench generate --gigabytes 1 /tmp/1g.xml        # a 1 GB export
///     workout-import-bench parse /tmp/1g.xml                         # records/s, peak RSS
///     workout-import-bench import /tmp/10y.xml                       # end to end, records/s
struct ImportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout-import-bench",
        abstract: "Measure the Apple Health importer: generated exports, parse speed and peak memory, import end to end.",
        subcommands: [Generate.self, Parse.self, Import.self])

    /// The process's peak resident memory so far (getrusage's ru_maxrss), in MiB.
    static func peakResidentMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a generated export.xml: --years of one member's data, or --gigabytes of it (heart-rate records fill it as in real exports).")

        @Option(help: "Years of history (a workout most days, steps of a phone and a watch, weigh-ins, three food entries a day).")
        var years = 10.0

        @Option(help: "Instead of --years: write this many gigabytes (10^9 bytes), history with heart-rate records.")
        var gigabytes: Double?

        @Argument(help: "The file to write.")
        var output: String

        func run() throws {
            let started = Date()
            let writer = try HealthExportWriter(path: output)
            let first = Date(timeIntervalSince1970: 1_420_070_400)  // 2015-01-01
            if let gigabytes {
                let target = Int64(gigabytes * 1e9)
                // About 230 KB a day: a gigabyte is some twelve years, from 2008 (none in the future).
                var start = Date(timeIntervalSince1970: 1_199_145_600)  // 2008-01-01
                while writer.bytesWritten < target - (1 << 20) {
                    let days = writer.history(from: start, days: 3_650, stepSamplesPerDay: 48, heartRatePerDay: 400, maxBytes: target)
                    start = start.addingTimeInterval(Double(days) * 86_400)
                    if days < 3_650 { break }
                }
            } else {
                writer.history(from: first, days: Int(years * 365.25), stepSamplesPerDay: 24)
            }
            try writer.finish()
            print("wrote \(output): \(ImportBench.megabytes(writer.bytesWritten)), \(writer.line) lines, in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        }
    }

    struct Parse: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read an export as a dry run: records/s, MB/s and the peak resident memory of this process.")

        @Argument(help: "export.xml or export.zip.")
        var file: String

        func measure() async throws {
            let before = ImportBench.peakResidentMiB()
            let session = ImportSession(source: try ImportSources.open(path: file, format: .appleHealth))
            let report = try await session.preview()
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            print("""
                parsed \(file) (\(ImportBench.megabytes(bytes))) in \(String(format: "%.1f", report.seconds)) s: \
                \(report.recordsRead) records (\(report.read.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))), \
                \(report.issueCount) skipped parts; \(Int(Double(report.recordsRead) / report.seconds)) records/s, \
                \(String(format: "%.1f", Double(bytes) / 1e6 / report.seconds)) MB/s; peak RSS \(String(format: "%.1f", ImportBench.peakResidentMiB())) MiB \
                (\(String(format: "%.1f", before)) MiB before reading)
                """)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Import an export end to end: a fresh workoutd (a child process), its owner, ImportSession over the loopback; records/s.")

        @Argument(help: "export.xml or export.zip.")
        var file: String

        @Option(help: "Records per batch.")
        var batch = 500

        @Option(help: "The server's limits.import_batches_per_minute (its default is 120).")
        var pace = 6_000

        @Option(help: "The workoutd executable (default: the one next to this executable).")
        var workoutd: String?

        func measure() async throws {
            guard let workoutd = workoutd ?? WorkoutdLocator.besideThisExecutable() else {
                throw ValidationError("no workoutd next to this executable; pass --workoutd")
            }
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("import-bench-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let data = work + "/data"
            let owner = Process()
            owner.executableURL = URL(fileURLWithPath: workoutd)
            owner.arguments = ["create-owner", "--data-dir", data, "--email", "bench@example.com", "--first-name", "Bench", "--time-zone", "Europe/Berlin", "--password-stdin"]
            let input = Pipe()
            owner.standardInput = input
            owner.standardOutput = FileHandle.nullDevice
            try owner.run()
            input.fileHandleForWriting.write(Data("correct horse battery\n".utf8))
            try input.fileHandleForWriting.close()
            owner.waitUntilExit()
            guard owner.terminationStatus == 0 else { throw ValidationError("workoutd create-owner failed") }
            let server = try EmbeddedServer(workoutd: workoutd, dataDirectory: data, workDirectory: work, connections: 4, importBatchesPerMinute: pace)
            defer { server.stop() }
            // The embedded workoutd serves plain TCP on loopback (`--transport plain`).
            let client = WorkoutClient(configuration: .init(
                address: .init(host: server.address.host, port: server.address.port), deviceName: "import-bench",
                transportSecurity: .plainTCP()))
            defer { client.close() }
            _ = try await client.login(email: "bench@example.com", password: "correct horse battery")
            let session = ImportSession(source: try ImportSources.open(path: file, format: .appleHealth), options: ImportOptions(recordsPerBatch: batch))
            let report = try await session.run(client: client)
            let totals = try await client.profile().totals
            print("""
                imported \(file) end to end through workoutd in \(String(format: "%.1f", report.seconds)) s: \
                \(report.recordsStored) records stored in \(report.batches) batches of \(batch) \
                (\(report.stored.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))); \
                \(Int(Double(report.recordsStored) / report.seconds)) records/s; server pace \(pace) batches/min; \
                totals: \(totals.totalWorkouts) workouts, \(totals.points) points, level \(totals.level), longest streak \(totals.longestStreakDays) days; \
                importer peak RSS \(String(format: "%.1f", ImportBench.peakResidentMiB())) MiB
                """)
        }
    }
}

// The async measurements are dispatched here: top-level code resolves `run()` of an
// `any AsyncParsableCommand` to ParsableCommand's synchronous one (which prints the help).
do {
    var command = try ImportBench.parseAsRoot()
    switch command {
    case let parse as ImportBench.Parse: try await parse.measure()
    case let run as ImportBench.Import: try await run.measure()
    default: try command.run()
    }
} catch {
    ImportBench.exit(withError: error)
}
