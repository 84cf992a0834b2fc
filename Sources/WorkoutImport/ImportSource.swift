public import Foundation
import WorkoutClient

/// A file of records to import, read as a stream.
///
/// Reading calls `body` for each record or skipped part, in the file's order, on the calling
/// thread; memory stays bounded whatever the file's size (each source says how). `body` may
/// throw to stop reading (a cancelled import); that error is rethrown.
public protocol ImportSource: Sendable {
    /// The file's size in bytes, when known (for a progress estimate).
    var totalBytes: Int64? { get }

    /// Reads the source.
    ///
    /// - Parameters:
    ///   - progress: Told how many bytes of the file have been read so far.
    ///   - body: Takes each record or skipped part.
    /// - Throws: ``ImportSourceError`` when the file cannot be read at all; whatever `body` throws.
    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws
}

/// The formats `workout import` and ``ImportSources/open(path:format:defaultTimeZone:)`` read.
public enum ImportFormat: String, Sendable, CaseIterable, Codable {
    /// Apple Health's `export.xml`, or the `export.zip` the Health app writes.
    case appleHealth = "apple-health"
    /// `workout export --format json`.
    case exportJSON = "export-json"
    /// `workout export --format csv`.
    case exportCSV = "export-csv"
    /// The spreadsheet CSV: a header line per kind (see `deploy/README.md`, section 14).
    case csv
    /// A workout file: a FIT activity, a GPX track or a TCX activity, gzip-compressed or not,
    /// or a zip archive of them (Strava's or Garmin Connect's bulk export).
    case workoutFile = "workout-file"

    /// The format a file's name and first bytes suggest.
    ///
    /// - Parameter path: The file.
    /// - Returns: The format, or `nil` when it cannot tell.
    public static func guess(path: String) -> ImportFormat? {
        let lower = path.lowercased()
        for suffix in [".fit", ".gpx", ".tcx"] where lower.hasSuffix(suffix) || lower.hasSuffix(suffix + ".gz") {
            return .workoutFile
        }
        if lower.hasSuffix(".zip") {
            // The Health app's export.zip, or a bulk export of workout files: the archive says.
            guard let handle = FileHandle(forReadingAtPath: path) else { return .appleHealth }
            defer { try? handle.close() }
            let names = ((try? ZipDirectory.entries(in: handle, archive: path)) ?? []).map(\.name)
            if !names.contains(where: { $0.hasSuffix("export.xml") }), names.contains(where: WorkoutFileArchiveSource.isWorkoutFile) {
                return .workoutFile
            }
            return .appleHealth
        }
        if lower.hasSuffix(".xml") { return .appleHealth }
        if lower.hasSuffix(".json") { return .exportJSON }
        guard lower.hasSuffix(".csv"), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 256)) ?? Data(), as: UTF8.self)
        return head.hasPrefix("kind,id,parent_id,") ? .exportCSV : .csv
    }
}

/// Counts the bytes a source has read, for progress; safe to read from another thread.
public final class ImportByteCounter: @unchecked Sendable {
    // Safe because: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Int64 = 0

    /// A counter at 0.
    public init() {}

    /// Bytes read so far.
    public var bytes: Int64 { lock.withLock { value } }

    /// Adds `count` bytes.
    func add(_ count: Int) { lock.withLock { value += Int64(count) } }
}

/// Opens import sources by format.
public enum ImportSources {
    /// The source reading `path` in `format`.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - format: Its format.
    ///   - defaultTimeZone: For the spreadsheet CSV: the zone of times written without an
    ///     offset or a `time_zone` column (the device's zone by default).
    /// - Returns: The source.
    /// - Throws: ``ImportSourceError`` when the file does not exist or cannot be read.
    public static func open(path: String, format: ImportFormat, defaultTimeZone: TimeZone = .current) throws -> any ImportSource {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ImportSourceError("cannot read \(path): no such file, or no permission")
        }
        switch format {
        case .appleHealth: return AppleHealthSource(path: path)
        case .exportJSON: return ExportJSONSource(path: path)
        case .exportCSV: return ExportCSVSource(path: path)
        case .csv: return SpreadsheetCSVSource(path: path, defaultTimeZone: defaultTimeZone)
        case .workoutFile:
            let head = FileHandle(forReadingAtPath: path).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 4)
            } ?? Data()
            return head.starts(with: [0x50, 0x4B, 0x03, 0x04]) ? WorkoutFileArchiveSource(path: path) : WorkoutFileSource(path: path)
        }
    }

    /// A file's size, or `nil`.
    static func size(of path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }
}
