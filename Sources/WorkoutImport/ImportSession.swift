import Foundation
import Synchronization
public import WorkoutClient
import WorkoutRules

/// Reads a source and brings its records in, in batches: what `workout import` runs, and
/// what an app can run.
///
/// * ``preview(progress:)`` reads the whole source and says what would be imported (counts
///   per kind, date range, what is skipped and why) without writing anything.
/// * ``run(client:progress:)`` reads it and sends batches of ``ImportOptions/recordsPerBatch``
///   records (fewer when a batch would pass ``ImportOptions/maxBatchBytes``) with
///   `WorkoutClient/importRecords(_:)`, one at a time, while the next batch is being read.
///   A batch the server paces (RESOURCE_EXHAUSTED) is sent again after the wait it names. A
///   record the server refuses anyway is reported and the batch sent without it.
/// * ``cancel()`` stops after the batch on the wire; nothing is half-written, and running the
///   import again goes on where it stopped (its records' ids make the ones already stored
///   count as unchanged).
///
/// Reading happens on a thread of its own (the parsers are synchronous), at most two batches
/// ahead of the network, so memory stays bounded.
public final class ImportSession: Sendable {
    private let source: any ImportSource
    private let options: ImportOptions
    private let cancelled = Atomic<Bool>(false)

    /// An import of `source`.
    ///
    /// - Parameters:
    ///   - source: What to read (``ImportSources/open(path:format:defaultTimeZone:)``).
    ///   - options: Batch sizes and strictness.
    public init(source: any ImportSource, options: ImportOptions = ImportOptions()) {
        self.source = source
        self.options = options
    }

    /// Stops the import after the batch in flight (callable from any thread, e.g. on SIGINT).
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Reads the whole source and reports what an import would do, writing nothing.
    ///
    /// - Parameter progress: Told how far reading has come, now and then.
    /// - Returns: Counts per kind, date range, the issues; `dryRun` set.
    /// - Throws: ``ImportSourceError`` when the source cannot be read at all.
    public func preview(progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws -> ImportReport {
        let started = ContinuousClock.now
        let counter = ImportByteCounter()
        var report = try await Self.onThread { [self, source] in
            var report = ImportReport()
            var lastTick = ContinuousClock.now
            do {
                try source.read(progress: counter) { event in
                    if self.isCancelled { throw ImportStopped() }
                    switch event {
                    case .record(let record, _): report.count(record)
                    case .skipped(let issue): report.note(issue)
                    }
                    if ContinuousClock.now - lastTick > .milliseconds(100) {
                        lastTick = ContinuousClock.now
                        progress(Self.progress(report, counter, source, started, sent: 0))
                    }
                }
            } catch is ImportStopped {}
            return report
        }
        report.dryRun = true
        report.stopped = isCancelled
        report.seconds = Self.seconds(since: started)
        progress(Self.progress(report, counter, source, started, sent: 0))
        return report
    }

    /// Reads the source and imports its records for the member `client` is signed in as.
    ///
    /// - Parameters:
    ///   - client: A signed-in client.
    ///   - progress: Told how far the import has come after each batch.
    /// - Returns: What was read, stored, left unchanged and skipped; `stopped` when cancelled.
    /// - Throws: ``ImportSourceError`` when the source cannot be read, ``ImportStrictFailure``
    ///   in strict mode when the source has issues (nothing is written then),
    ///   ``ImportInterrupted`` when the server refuses a batch for another reason than a record
    ///   or cannot be reached (the batches before it are stored, and its report says what they
    ///   held: the same import run again goes on).
    public func run(client: WorkoutClient, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws -> ImportReport {
        if options.strict {
            let preview = try await preview(progress: progress)
            if preview.issueCount > 0 { throw ImportStrictFailure(report: preview) }
            if preview.stopped { return preview }
        }
        let started = ContinuousClock.now
        let counter = ImportByteCounter()
        let (batches, continuation) = AsyncStream<Batch>.makeStream()
        let room = DispatchSemaphore(value: 2)
        let state = SharedReport()
        let options = self.options
        let reading = Task.detached { [self, source] in
            try await Self.onThread {
                defer { continuation.finish() }
                var batch = Batch()
                func ship() throws {
                    guard !batch.records.isEmpty else { return }
                    room.wait()
                    if self.isCancelled { throw ImportStopped() }
                    continuation.yield(batch)
                    batch = Batch()
                }
                do {
                    try source.read(progress: counter) { event in
                        if self.isCancelled { throw ImportStopped() }
                        switch event {
                        case .record(let record, let location):
                            state.value.withLock { $0.report.count(record) }
                            let size = Self.estimatedBytes(record)
                            if batch.records.count == options.recordsPerBatch || batch.bytes + size > options.maxBatchBytes { try ship() }
                            batch.records.append(record)
                            batch.locations.append(location)
                            batch.bytes += size
                        case .skipped(let issue):
                            state.value.withLock { $0.report.note(issue) }
                        }
                    }
                    try ship()
                } catch is ImportStopped {
                    return
                }
            }
        }
        var sent = 0
        do {
            for await batch in batches {
                defer { room.signal() }
                if isCancelled { break }
                let (answer, refused) = try await send(batch, client: client)
                state.value.withLock { state in
                    for issue in refused { state.report.note(issue) }
                    if let answer { state.report.add(answer) }
                }
                sent += batch.records.count
                let snapshot = state.value.withLock { $0.report }
                progress(Self.progress(snapshot, counter, source, started, sent: sent))
            }
        } catch {
            cancel()
            room.signal()
            room.signal()
            _ = try? await reading.value
            guard let failure = error as? WorkoutError else { throw error }
            var report = state.value.withLock { $0.report }
            report.stopped = true
            report.seconds = Self.seconds(since: started)
            throw ImportInterrupted(report: report, error: failure)
        }
        if isCancelled {
            room.signal()
            room.signal()
        }
        try await reading.value
        var report = state.value.withLock { $0.report }
        report.stopped = isCancelled
        report.seconds = Self.seconds(since: started)
        progress(Self.progress(report, counter, source, started, sent: sent))
        return report
    }

    /// Sends one batch: again after the wait the server names when it paces the member, and
    /// without a record the server refuses (reported as an issue at the record's location).
    private func send(_ batch: Batch, client: WorkoutClient) async throws -> (ImportedBatch?, [ImportIssue]) {
        var records = batch.records
        var locations = batch.locations
        var refused: [ImportIssue] = []
        while !records.isEmpty {
            let answer: Result<ImportedBatch, WorkoutError>
            do {
                answer = .success(try await client.importRecords(records))
            } catch {
                answer = .failure(error)
            }
            let error: WorkoutError
            switch answer {
            case .success(let batch): return (batch, refused)
            case .failure(let failure): error = failure
            }
            if error.code == .resourceExhausted, let wait = error.retryAfter {
                try await Task.sleep(for: wait)
                continue
            }
            guard error.code == .invalidArgument || error.code == .alreadyExists, !options.strict,
                  let index = ImportRecordPath.index(in: error.field), index < records.count
            else { throw error }
            refused.append(ImportIssue(location: locations[index], kind: records[index].kind, reason: "the server refused it: \(error.message)"))
            records.remove(at: index)
            locations.remove(at: index)
        }
        return (nil, refused)
    }

    /// A generous estimate of a record's encoded size, to keep a batch within the frame limit.
    private static func estimatedBytes(_ record: ImportRecord) -> Int {
        switch record {
        case .workout(let workout): 96 + workout.type.utf8.count + workout.notes.utf8.count + (workout.timeZone?.utf8.count ?? 0)
        case .meal(let meal): 96 + meal.name.utf8.count + meal.items.reduce(0) { $0 + 64 + $1.name.utf8.count }
        case .weight(let entry): 80 + entry.note.utf8.count
        case .steps(let report): 48 + report.source.utf8.count
        }
    }

    private static func progress(_ report: ImportReport, _ counter: ImportByteCounter, _ source: any ImportSource, _ started: ContinuousClock.Instant, sent: Int) -> ImportProgress {
        ImportProgress(
            bytesRead: counter.bytes, totalBytes: source.totalBytes, recordsRead: report.recordsRead, recordsSent: sent,
            skipped: report.issueCount, seconds: seconds(since: started))
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Runs blocking work on a thread of its own (not the cooperative pool) and awaits it.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Records on their way to the server.
    private struct Batch: Sendable {
        var records: [ImportRecord] = []
        var locations: [String] = []
        var bytes = 0
    }

    /// The report, filled by the reading thread and the sending task.
    private final class SharedReport: Sendable {
        let value = Mutex(ReaderState())
    }

    private struct ReaderState: Sendable {
        var report = ImportReport()
    }
}

/// How an import cuts its batches.
public struct ImportOptions: Sendable, Hashable {
    /// Records per batch, at most `WorkoutClient/maxImportBatchRecords`.
    public var recordsPerBatch: Int
    /// The most bytes (estimated) of records per batch, to stay well within the frame limit.
    public var maxBatchBytes: Int
    /// Whether any issue stops the import before anything is written (the source is read
    /// once to check it first).
    public var strict: Bool

    /// Options.
    ///
    /// - Parameters:
    ///   - recordsPerBatch: Records per batch, clamped to 1...`WorkoutClient/maxImportBatchRecords`.
    ///   - maxBatchBytes: Bytes per batch (estimated), at least 64 KiB.
    ///   - strict: Stop before writing anything when the source has an issue.
    public init(recordsPerBatch: Int = 500, maxBatchBytes: Int = 1 << 20, strict: Bool = false) {
        self.recordsPerBatch = min(max(1, recordsPerBatch), WorkoutClient.maxImportBatchRecords)
        self.maxBatchBytes = max(64 << 10, maxBatchBytes)
        self.strict = strict
    }
}

/// An import the server stopped, or that lost the server, after some batches were stored: what
/// they held (``report``, `stopped`), and why it stopped. Running the same import again goes on:
/// the stored records are `unchanged` the second time, never stored twice.
public struct ImportInterrupted: Error, Sendable {
    /// What was read and stored before it stopped.
    public var report: ImportReport
    /// Why it stopped: the server's refusal of a batch, or the connection lost.
    public var error: WorkoutError
}

/// A strict import found issues in its source and wrote nothing.
public struct ImportStrictFailure: Error, Sendable {
    /// The dry run's report, with the issues.
    public var report: ImportReport
}

/// Thrown inside a source's reading to stop it (the import was cancelled).
struct ImportStopped: Error {}
