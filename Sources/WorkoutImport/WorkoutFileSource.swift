import Foundation
import WorkoutClient
import WorkoutFiles
import WorkoutRules

/// A workout file brought in: a FIT activity (Garmin, Wahoo, Coros, Polar, Suunto), a GPX track
/// or a TCX activity, as a device or Garmin Connect or Strava exports it, gzip-compressed or not
/// (Strava's bulk export holds `*.fit.gz`, `*.gpx.gz`, `*.tcx.gz`). The format is told by the
/// file's first bytes, not its name. Each session or track is one workout, its id derived from
/// the file's own identity, as the server's upload derives it, so importing the file again, a
/// renamed copy, or the same file posted to `/ingest/workout-file`, stores nothing twice.
///
/// **Memory.** A file is read whole, at most 64 MiB (after inflating): a day recorded every
/// second is a few MB.
struct WorkoutFileSource: ImportSource {
    /// The file.
    let path: String

    var totalBytes: Int64? { ImportSources.size(of: path) }

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        let name = (path as NSString).lastPathComponent
        guard (ImportSources.size(of: path) ?? 0) <= Int64(WorkoutFile.maxBytes) else {
            throw ImportSourceError("\(name) is larger than \(WorkoutFile.maxBytes >> 20) MiB: not a workout file this import reads")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportSourceError("cannot read \(path): \(error.localizedDescription)")
        }
        progress.add(data.count)
        let read: (kind: WorkoutFile.Kind, contents: FITActivityFile.Contents)
        do {
            read = try WorkoutFile.read(data)
        } catch {
            throw ImportSourceError("\(name): \(error.message)")
        }
        try Self.deliver(read, name: name, body)
    }

    /// The events of a file read: its skipped sessions, then its workouts, located by `name`
    /// (`run.fit`, `run.fit workout 2` when it holds several).
    static func deliver(_ read: (kind: WorkoutFile.Kind, contents: FITActivityFile.Contents), name: String, _ body: (ImportEvent) throws -> Void) throws {
        for reason in read.contents.skipped {
            try body(.skipped(ImportIssue(location: name, kind: .workout, reason: reason)))
        }
        let activities = read.contents.activities
        for (index, activity) in activities.enumerated() {
            let location = activities.count == 1 ? name : "\(name) workout \(index + 1)"
            guard let kept = activity.importable(format: read.kind.name) else {
                try body(.skipped(ImportIssue(location: location, kind: .workout, reason: "a workout of under a second")))
                continue
            }
            var workout = Workout(
                id: kept.id, type: kept.type, durationSeconds: kept.durationSeconds, caloriesBurned: kept.kilocalories,
                performedAt: kept.start, notes: kept.notes)
            workout.distanceM = kept.distanceMetres
            workout.elevationGainM = kept.ascentMetres
            workout.averageHeartRate = kept.averageHeartRate
            workout.maxHeartRate = kept.maxHeartRate
            workout.location = kept.place.map { $0 == .indoor ? .indoor : .outdoor }
            try body(.record(.workout(workout), location: location))
        }
    }
}
