public import Foundation
public import WorkoutClient

/// What an import read, stored and skipped: the dry run's answer, and the summary at the end.
public struct ImportReport: Sendable, Codable, Hashable {
    /// Records read that are within the server's bounds, per kind (`workout`, `meal`, …).
    public var read: [String: Int] = [:]
    /// Records the server stored, per kind (0 in a dry run).
    public var stored: [String: Int] = [:]
    /// Records the server already had (an import run again, or resumed).
    public var unchanged = 0
    /// The earliest and latest time among the records read.
    public var firstDate: Date?
    public var lastDate: Date?
    /// Parts of the source not imported, and why (at most ``maxIssuesKept``; see ``issueCount``).
    public var issues: [ImportIssue] = []
    /// How many parts were not imported.
    public var issueCount = 0
    /// Batches sent.
    public var batches = 0
    /// Achievements the import unlocked.
    public var unlocked: [Achievement] = []
    /// The member's totals after the import (`nil` in a dry run).
    public var totals: Totals?
    /// Whether the import was stopped before the end (then run it again to go on).
    public var stopped = false
    /// Whether nothing was written (a dry run).
    public var dryRun = false
    /// Seconds from start to end.
    public var seconds: Double = 0

    /// The most issues kept in ``issues``.
    public static let maxIssuesKept = 1_000

    /// An empty report.
    public init() {}

    /// Records read in all.
    public var recordsRead: Int { read.values.reduce(0, +) }
    /// Records stored in all.
    public var recordsStored: Int { stored.values.reduce(0, +) }

    /// Counts a record read.
    mutating func count(_ record: ImportRecord) {
        read[record.kind.rawValue, default: 0] += 1
        let date = record.date
        if firstDate.map({ date < $0 }) ?? true { firstDate = date }
        if lastDate.map({ date > $0 }) ?? true { lastDate = date }
    }

    /// Keeps an issue.
    mutating func note(_ issue: ImportIssue) {
        issueCount += 1
        if issues.count < Self.maxIssuesKept { issues.append(issue) }
    }

    /// Adds what a batch did.
    mutating func add(_ batch: ImportedBatch) {
        batches += 1
        stored[ImportKind.workout.rawValue, default: 0] += batch.workouts
        stored[ImportKind.meal.rawValue, default: 0] += batch.meals
        stored[ImportKind.weight.rawValue, default: 0] += batch.weights
        stored[ImportKind.steps.rawValue, default: 0] += batch.stepsReports
        unchanged += batch.unchanged
        unlocked += batch.unlocked
        totals = batch.totals
    }
}

/// How far an import has come, for a progress bar.
public struct ImportProgress: Sendable, Hashable {
    /// Bytes of the source read, and its size when known.
    public var bytesRead: Int64
    public var totalBytes: Int64?
    /// Records read so far (within bounds).
    public var recordsRead: Int
    /// Records the server has answered for (stored or unchanged); 0 in a dry run.
    public var recordsSent: Int
    /// Parts skipped so far.
    public var skipped: Int
    /// Seconds since the start.
    public var seconds: Double

    /// Records per second: sent when writing, read in a dry run.
    public var recordsPerSecond: Double {
        seconds > 0 ? Double(recordsSent > 0 ? recordsSent : recordsRead) / seconds : 0
    }

    /// The fraction of the source read, 0...1, when its size is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }

    /// Seconds left, estimated from the bytes read so far.
    public var secondsLeft: Double? {
        guard let fraction, fraction > 0.01, seconds > 0.5 else { return nil }
        return seconds / fraction - seconds
    }
}
