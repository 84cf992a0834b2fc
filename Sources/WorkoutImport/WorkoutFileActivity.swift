import Foundation
import WorkoutClient
import WorkoutRules

/// One workout as a workout file (FIT, GPX, TCX) tells it: its kind, when, how long, and the
/// figures the file holds, before it becomes a `Workout`.
struct WorkoutFileActivity: Sendable, Hashable {
    /// Our workout type (`running`), from the file's sport.
    var type: String
    /// When it began.
    var start: Date
    /// How long it lasted, in seconds.
    var durationSeconds: Double
    /// The distance covered, in metres.
    var distanceMetres: Double?
    /// The height climbed, in metres.
    var ascentMetres: Double?
    /// The energy spent, in kcal.
    var kilocalories: Double?
    /// The average heart rate, in beats a minute.
    var averageHeartRate: Double?
    /// The highest heart rate, in beats a minute.
    var maxHeartRate: Double?
    /// What identifies it within its file's own identity (a FIT file's device and creation time
    /// and the session's start; a TCX activity's `Id`; a GPX track's first point and name): the
    /// name its id is derived from, so importing the file again stores nothing twice.
    var identity: String

    /// An activity with the figures a file gave.
    init(
        type: String, start: Date, durationSeconds: Double, distanceMetres: Double? = nil, ascentMetres: Double? = nil,
        kilocalories: Double? = nil, averageHeartRate: Double? = nil, maxHeartRate: Double? = nil, identity: String
    ) {
        self.type = type
        self.start = start
        self.durationSeconds = durationSeconds
        self.distanceMetres = distanceMetres
        self.ascentMetres = ascentMetres
        self.kilocalories = kilocalories
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.identity = identity
    }

    /// The workout to import: its id derived from ``identity`` (in `namespace`), each figure kept
    /// when it is within the server's bounds and left out otherwise (a GPS glitch's 3,000 km
    /// leaves the workout without a distance, not out of the import).
    ///
    /// - Parameter format: The file's format, named in the notes (`FIT file`).
    /// - Returns: The workout; `nil` when it lasted under a second.
    func workout(namespace: UUID, format: String) -> Workout? {
        guard durationSeconds.isFinite, durationSeconds >= 1, durationSeconds < Double(Int32.max) else { return nil }
        var workout = Workout(
            id: ImportRecordID.derived(namespace: namespace, name: "workout|\(identity)"), type: type,
            durationSeconds: Int(durationSeconds.rounded()),
            caloriesBurned: kilocalories.map { $0.isFinite && $0 >= 0 && $0 < 100_000 ? ($0 * 10).rounded() / 10 : 0 } ?? 0,
            performedAt: start, notes: format)
        if let metres = distanceMetres, metres.isFinite, RecordLimits.workoutDistanceMetres.contains(metres.rounded()) {
            workout.distanceM = metres.rounded()
        }
        if let metres = ascentMetres, metres.isFinite, RecordLimits.workoutElevationMetres.contains((metres * 10).rounded() / 10) {
            workout.elevationGainM = (metres * 10).rounded() / 10
        }
        let average = averageHeartRate.flatMap(Self.beats)
        let maximum = maxHeartRate.flatMap(Self.beats)
        // Both or neither when the maximum is below the average: not a pair the server keeps.
        if !(average != nil && maximum != nil && maximum! < average!) {
            workout.averageHeartRate = average
            workout.maxHeartRate = maximum
        }
        return workout
    }

    /// A heart rate the server keeps, rounded; `nil` otherwise.
    private static func beats(_ value: Double) -> Int? {
        guard value.isFinite, RecordLimits.workoutHeartRate.contains(Int(value.rounded())) else { return nil }
        return Int(value.rounded())
    }
}
