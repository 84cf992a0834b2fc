import Foundation
import WorkoutFiles
import WorkoutProtocol

/// A workout file posted to `/ingest/workout-file` (FIT, GPX or TCX, gzip-compressed or not, as
/// the body with any `Content-Type`), turned into the records of `Logging.ImportRecords` by the
/// readers the CLI's `workout import` uses, with the same derived ids: a file imported from the
/// CLI and posted here too is stored once.
enum WorkoutFileUpload {
    /// The most bytes a posted file may inflate to: a day recorded every second (FIT about
    /// 5 MB, GPX about 15 MB) fits, and a few uploads at once stay within a small box's memory.
    static let maxInflatedBytes = 16 << 20

    /// The workouts of a posted file, each named `workout[i]`, and why any was left out.
    ///
    /// - Throws: ``CallFailure`` INVALID_ARGUMENT naming what is wrong with the file (not a
    ///   workout file, damaged, cut short): nothing of it is stored.
    static func entries(_ body: [UInt8]) throws(CallFailure) -> (entries: [IngestEntry], skipped: [String: Int]) {
        let read: (kind: WorkoutFile.Kind, contents: FITActivityFile.Contents)
        do {
            read = try WorkoutFile.read(Data(body), limit: maxInflatedBytes)
        } catch {
            throw CallFailure(.invalidArgument, "the body is not a workout file this server reads: \(error.message)")
        }
        var skipped: [String: Int] = [:]
        if !read.contents.skipped.isEmpty { skipped["workout"] = read.contents.skipped.count }
        var entries: [IngestEntry] = []
        for (index, activity) in read.contents.activities.enumerated() {
            guard let kept = activity.importable(format: read.kind.name) else {
                skipped["workout", default: 0] += 1
                continue
            }
            var workout = Workout_V1_Workout()
            workout.id = withUnsafeBytes(of: kept.id.uuid) { Data($0) }
            workout.workoutType = kept.type
            workout.durationSeconds = UInt32(kept.durationSeconds)
            workout.caloriesBurned = kept.kilocalories
            workout.performedAtMs = Int64((kept.start.timeIntervalSince1970 * 1_000).rounded())
            workout.notes = kept.notes
            workout.distanceM = kept.distanceMetres ?? 0
            workout.elevationGainM = kept.ascentMetres ?? 0
            workout.averageHeartRate = kept.averageHeartRate.map { UInt32($0) } ?? 0
            workout.maxHeartRate = kept.maxHeartRate.map { UInt32($0) } ?? 0
            workout.location = kept.place.flatMap { Workout_V1_WorkoutLocation(rawValue: $0.rawValue) } ?? .unspecified
            var record = Workout_V1_ImportRecord()
            record.workout = workout
            entries.append(IngestEntry(field: "workout[\(index)]", record: record))
        }
        return (entries, skipped)
    }
}
