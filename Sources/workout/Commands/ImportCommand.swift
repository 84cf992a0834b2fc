import ArgumentParser
import Dispatch
import Foundation
import WorkoutClient
import WorkoutImport

/// `workout import FILE`: brings a history in — Apple Health's export, `workout export`'s
/// JSON or CSV, the spreadsheet CSV, or a workout file (FIT, GPX, TCX) — for the signed-in
/// member, in batches the server
/// applies as if each record had been logged live.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import your history: Apple Health's export, a `workout export` file, a spreadsheet CSV, or a FIT, GPX or TCX file.",
        discussion: """
            FILE is Apple Health's export.zip or the export.xml inside it, a file `workout export` \
            wrote (JSON or CSV), a spreadsheet CSV with a header line per kind (see deploy/README.md, section 14), \
            or a workout file a watch or Garmin Connect or Strava wrote: FIT, GPX or TCX, gzip-compressed or not \
            (*.fit, *.gpx.gz …), or a zip of them (Strava's bulk export). The format is guessed from the file's \
            name (and a zip's contents) unless --format says it.

            Totals, streaks, points, level and achievements come out as if each record had been \
            logged when it happened. Every record gets an id derived from the file, so importing \
            the same file again stores nothing twice, and an import stopped with Ctrl-C goes on \
            where it stopped when run again.

            --dry-run reads the whole file and says what would be imported (counts per kind, \
            the date range, what is skipped and why) without writing anything. A line that \
            cannot be imported is reported with its number and the reason, and the rest is \
            imported; with --strict any such line stops the import before anything is written.
            """)

    @Argument(help: ArgumentHelp("The file to import.", valueName: "file"))
    var file: String

    @Option(help: "apple-health, export-json, export-csv, csv or workout-file (default: from the file's name).")
    var format: ImportFormatArgument?

    @Flag(help: "Say what would be imported, write nothing.")
    var dryRun = false

    @Flag(help: "Stop before writing anything when a line cannot be imported.")
    var strict = false

    @Option(help: ArgumentHelp("Records per batch, 1 to 1000.", valueName: "count"))
    var batchSize = 500

    @Option(help: ArgumentHelp("How many skipped lines to list (all are counted).", valueName: "count"))
    var showSkipped = 20

    @OptionGroup var options: OutputOptions

    func validate() throws {
        guard (1...WorkoutClient.maxImportBatchRecords).contains(batchSize) else {
            throw ValidationError("--batch-size must be 1 to \(WorkoutClient.maxImportBatchRecords)")
        }
        guard showSkipped >= 0 else { throw ValidationError("--show-skipped must not be negative") }
    }

    func run() async throws {
        guard let format = format?.format ?? ImportFormat.guess(path: file) else {
            throw CLIError(.usage, "cannot tell the format of \(file) from its name; give --format (\(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        // A time without an offset in the file is read in the member's zone, as stored at login
        // (this machine's when none is); the dry run asks the server nothing.
        let member = MemberZone.stored()
        let source: any ImportSource
        do {
            source = try ImportSources.open(path: file, format: format, defaultTimeZone: member.zone)
        } catch {
            throw CLIError(.failure, "\(error)")
        }
        let session = ImportSession(source: source, options: ImportOptions(recordsPerBatch: batchSize, strict: strict))
        let stopper = InterruptStopper(session: session)
        defer { stopper.restore() }
        let bar = ProgressBar(enabled: !options.json && isatty(STDERR_FILENO) == 1)
        let report: ImportReport
        if dryRun {
            do {
                report = try await session.preview(progress: bar.update)
            } catch {
                bar.finish()
                throw CLIError(.failure, "\(error)")
            }
        } else {
            let signedIn = try SignedInSession()
            defer { signedIn.close() }
            do {
                report = try await session.run(client: signedIn.client, progress: bar.update)
            } catch let failure as ImportStrictFailure {
                bar.finish()
                try show(failure.report, format: format, zone: member, refusedAsStrict: true)
                throw CLIError(.invalidInput, "--strict: \(Format.count(failure.report.issueCount, "line")) cannot be imported; nothing was written")
            } catch let interrupted as ImportInterrupted {
                // What came in stays: say how much, and that the same command goes on.
                bar.finish()
                try show(interrupted.report, format: format, zone: member)
                let reason = CLIError(interrupted.error, context: .init(server: signedIn.address.description, action: "import"))
                let stored = interrupted.report.recordsStored
                throw CLIError(reason.status, "\(reason.message) — \(Format.count(stored, "record")) of this file \(stored == 1 ? "was" : "were") stored before it stopped; "
                    + "run the same command again to import the rest (nothing is imported twice)")
            } catch let error as WorkoutError {
                bar.finish()
                throw CLIError(error, context: .init(server: signedIn.address.description, action: "import"))
            } catch {
                bar.finish()
                throw CLIError(.failure, "\(error)")
            }
        }
        bar.finish()
        try show(report, format: format, zone: member)
        if report.stopped {
            throw CLIError(.temporary, "stopped; run the same command again to go on (what was imported stays, nothing is imported twice)")
        }
    }

    /// Prints the report: JSON with `--json`, else the summary and the skipped lines.
    ///
    /// - Parameter refusedAsStrict: Whether `--strict` refused the file after reading it (the
    ///   report is then the reading's, which wrote nothing, though no dry run was asked for).
    private func show(_ report: ImportReport, format: ImportFormat, zone: MemberZone, refusedAsStrict: Bool = false) throws {
        if options.json {
            try Output.printJSON(report)
            return
        }
        for issue in report.issues.prefix(showSkipped) {
            Output.message("\(file): \(issue)")
        }
        if report.issueCount > showSkipped {
            Output.message("\(file): … \(Format.count(report.issueCount - min(showSkipped, report.issues.count), "more skipped part")) (--show-skipped, --json)")
        }
        Output.lines(Self.summary(report, file: file, format: format, zone: zone.zone, refusedAsStrict: refusedAsStrict))
        zone.printNote()
    }

    /// The summary lines.
    ///
    /// - Parameter refusedAsStrict: Whether `--strict` refused the file: the lines stop after
    ///   what was read and skipped, and the refusal's own message says nothing was written.
    static func summary(
        _ report: ImportReport, file: String, format: ImportFormat, zone: TimeZone = .current, refusedAsStrict: Bool = false
    ) -> [String] {
        func counts(_ values: [String: Int]) -> String {
            let parts = ImportKind.allCases.compactMap { kind -> String? in
                guard let count = values[kind.rawValue], count > 0 else { return nil }
                return Format.count(count, kind.singular, kind.plural)
            }
            return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
        }
        var lines: [String] = []
        let range: String
        if let first = report.firstDate, let last = report.lastDate {
            range = " from \(Format.day(first, in: zone)) to \(Format.day(last, in: zone))"
        } else {
            range = ""
        }
        lines.append("Read \(counts(report.read))\(range) (\(format.rawValue)).")
        if report.issueCount > 0 {
            lines.append("Skipped \(Format.count(report.issueCount, "part")) of the file (listed on standard error).")
        }
        if refusedAsStrict { return lines }
        if report.dryRun {
            lines.append(report.stopped ? "Stopped; nothing was written." : "Dry run: nothing was written.")
            return lines
        }
        lines.append("Imported \(counts(report.stored)) in \(Format.count(report.batches, "batch", "batches"))"
            + (report.unchanged > 0 ? "; \(Format.grouped(report.unchanged)) were there already" : "") + ".")
        if report.seconds > 0 {
            let rate = Double(report.recordsRead) / report.seconds
            lines.append("\(Format.number(report.seconds, decimals: 1)) s, \(Format.grouped(Int(rate.rounded()))) records/s.")
        }
        if !report.unlocked.isEmpty {
            lines.append("Unlocked: \(report.unlocked.map(\.title).joined(separator: ", ")).")
        }
        if let totals = report.totals {
            lines.append("Now: \(Format.count(totals.totalWorkouts, "workout")), \(Format.grouped(totals.points)) points, level \(totals.level), longest streak \(Format.count(totals.longestStreakDays, "day")).")
        }
        return lines
    }
}

/// `--format`'s value: an ``ImportFormat`` by its name.
struct ImportFormatArgument: ExpressibleByArgument {
    var format: ImportFormat

    init?(argument: String) {
        guard let format = ImportFormat(rawValue: argument) else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { ImportFormat.allCases.map(\.rawValue) }
}

/// Ctrl-C (SIGINT) stops the import cleanly after the batch on the wire; a second Ctrl-C
/// exits at once.
final class InterruptStopper: @unchecked Sendable {
    // Safe because: `source` is only touched on `queue` (and in `restore`, after which no
    // handler runs).
    private let queue = DispatchQueue(label: "workout.import.signals")
    private var source: (any DispatchSourceSignal)?
    private var interrupted = false

    init(session: ImportSession) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        source.setEventHandler { [self] in
            if interrupted { Foundation.exit(ExitStatus.temporary.rawValue) }
            interrupted = true
            Output.message("\nworkout: stopping after the batch in flight (Ctrl-C again to quit at once)")
            session.cancel()
        }
        source.resume()
        self.source = source
    }

    /// Puts SIGINT's default action back.
    func restore() {
        source?.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

/// A one-line progress bar on standard error: percent of the file, records/s, time left.
final class ProgressBar: @unchecked Sendable {
    // Safe because: every field is touched under `lock`.
    private let lock = NSLock()
    private let enabled: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    /// Draws `progress`, at most ten times a second.
    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        lock.withLock {
            guard Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = Date()
            drawn = true
            FileHandle.standardError.write(Data(("\r" + Self.line(progress, width: TerminalSize.columns())).utf8))
        }
    }

    /// Clears the bar's line.
    func finish() {
        guard enabled else { return }
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            drawn = false
        }
    }

    /// `[#########-----------]  45%  12,345 records  3,210/s  ~0:42 left`.
    static func line(_ progress: ImportProgress, width: Int) -> String {
        var tail = "  \(Format.grouped(progress.recordsRead)) records  \(Format.grouped(Int(progress.recordsPerSecond.rounded())))/s"
        if let left = progress.secondsLeft {
            let seconds = Int(left.rounded())
            tail += String(format: "  ~%d:%02d left", seconds / 60, seconds % 60)
        }
        if progress.skipped > 0 { tail += "  \(progress.skipped) skipped" }
        guard let fraction = progress.fraction else { return String(tail.dropFirst(2)) }
        let barWidth = max(10, min(40, width - tail.count - 8))
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "] " + percent + tail
    }
}
