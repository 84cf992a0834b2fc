import Foundation
import WorkoutClient
import WorkoutFiles

/// A bulk export of workout files: a zip archive holding FIT, GPX or TCX files, gzip-compressed
/// or not, as Strava's ("Download your data": `activities/*.fit.gz`, `*.gpx.gz`, `*.tcx.gz`)
/// and Garmin Connect's exports hold them. Each file is read as ``WorkoutFileSource`` reads
/// one, with the same ids, so a file imported on its own and again inside its archive is
/// stored once. A file of the archive that cannot be read (damaged, cut short, too large) is
/// reported by its name and skipped: the archive's other files still come in. Files of other
/// kinds (Strava's `activities.csv`, photos) are not read.
///
/// **Memory.** One file of the archive at a time, at most 64 MiB, inflated as it is read.
struct WorkoutFileArchiveSource: ImportSource {
    /// The archive.
    let path: String

    var totalBytes: Int64? { ImportSources.size(of: path) }

    /// Whether an archive's entry is a workout file by its name.
    static func isWorkoutFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        return !lower.hasSuffix("/") && [".fit", ".gpx", ".tcx"].contains { lower.hasSuffix($0) || lower.hasSuffix($0 + ".gz") }
    }

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        let archive = (path as NSString).lastPathComponent
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImportSourceError("cannot open \(path)") }
        let entries: [ZipDirectory.Entry]
        do {
            defer { try? handle.close() }
            entries = try ZipDirectory.entries(in: handle, archive: path).filter { Self.isWorkoutFile($0.name) }
        }
        guard !entries.isEmpty else { throw ImportSourceError("\(archive) holds no FIT, GPX or TCX file") }
        for entry in entries {
            let name = "\(archive): \(entry.name)"
            guard entry.uncompressedSize <= UInt64(WorkoutFile.maxBytes) else {
                try body(.skipped(ImportIssue(location: name, kind: .workout, reason: "it is larger than \(WorkoutFile.maxBytes >> 20) MiB")))
                continue
            }
            let read: (kind: WorkoutFile.Kind, contents: FITActivityFile.Contents)
            do {
                read = try WorkoutFile.read(try Self.contents(of: entry, in: path, progress: progress))
            } catch let error as WorkoutFileError {
                try body(.skipped(ImportIssue(location: name, kind: .workout, reason: error.message)))
                continue
            } catch let error as ImportSourceError {
                try body(.skipped(ImportIssue(location: name, kind: .workout, reason: error.message)))
                continue
            }
            try WorkoutFileSource.deliver(read, name: name, body)
        }
    }

    /// The bytes of `entry`, inflated, at most ``WorkoutFile/maxBytes``.
    private static func contents(of entry: ZipDirectory.Entry, in path: String, progress: ImportByteCounter) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImportSourceError("cannot open \(path)") }
        let stream = try ZipEntryStream(archive: path, handle: handle, entry: entry, counter: progress)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            if count < 0 { throw stream.readError ?? ImportSourceError("the file could not be read from the archive") }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            guard data.count <= WorkoutFile.maxBytes else { throw ImportSourceError("it inflates to more than \(WorkoutFile.maxBytes >> 20) MiB") }
        }
        return data
    }
}
