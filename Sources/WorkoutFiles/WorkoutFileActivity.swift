package import Foundation
package import WorkoutRules

/// One workout as a workout file (FIT, GPX, TCX) tells it: its kind, when, how long, and the
/// figures the file holds, before it becomes a workout to import.
package struct WorkoutFileActivity: Sendable, Hashable {
    /// Our workout type (`running`), from the file's sport.
    package var type: String
    /// When it began.
    package var start: Date
    /// How long it lasted, in seconds.
    package var durationSeconds: Double
    /// The distance covered, in metres.
    package var distanceMetres: Double?
    /// The height climbed, in metres.
    package var ascentMetres: Double?
    /// The energy spent, in kcal.
    package var kilocalories: Double?
    /// The average heart rate, in beats a minute.
    package var averageHeartRate: Double?
    /// The highest heart rate, in beats a minute.
    package var maxHeartRate: Double?
    /// Where it was done, when the file says it.
    package var place: WorkoutPlace?
    /// What identifies it within its file's own identity (a FIT file's device and creation time
    /// and the session's start; a TCX activity's `Id`; a GPX track's first point and name): the
    /// name its id is derived from, so importing the file again stores nothing twice.
    package var identity: String

    /// An activity with the figures a file gave.
    package init(
        type: String, start: Date, durationSeconds: Double, distanceMetres: Double? = nil, ascentMetres: Double? = nil,
        kilocalories: Double? = nil, averageHeartRate: Double? = nil, maxHeartRate: Double? = nil, place: WorkoutPlace? = nil,
        identity: String
    ) {
        self.type = type
        self.start = start
        self.durationSeconds = durationSeconds
        self.distanceMetres = distanceMetres
        self.ascentMetres = ascentMetres
        self.kilocalories = kilocalories
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.place = place
        self.identity = identity
    }

    /// The workout to import: its id derived from ``identity``, each figure kept when it is
    /// within the server's bounds and left out otherwise (a GPS glitch's 3,000 km leaves the
    /// workout without a distance, not out of the import). The CLI's import and the server's
    /// upload both make it here, so a file brought in both ways is stored once.
    ///
    /// - Parameter format: The file's format, named in the notes (`FIT file`).
    /// - Returns: The workout; `nil` when it lasted under a second.
    package func importable(format: String) -> ImportableWorkout? {
        guard durationSeconds.isFinite, durationSeconds >= 1, durationSeconds < Double(Int32.max) else { return nil }
        var workout = ImportableWorkout(
            id: NameBasedUUID.version5(namespace: WorkoutFile.namespace, name: "workout|\(identity)"), type: type,
            durationSeconds: Int(durationSeconds.rounded()),
            kilocalories: kilocalories.map { $0.isFinite && $0 >= 0 && $0 < 100_000 ? ($0 * 10).rounded() / 10 : 0 } ?? 0,
            start: start, notes: "From a \(format)", place: place)
        if let metres = distanceMetres, metres.isFinite, RecordLimits.workoutDistanceMetres.contains(metres.rounded()) {
            workout.distanceMetres = metres.rounded()
        }
        if let metres = ascentMetres, metres.isFinite, RecordLimits.workoutElevationMetres.contains((metres * 10).rounded() / 10) {
            workout.ascentMetres = (metres * 10).rounded() / 10
        }
        let average = averageHeartRate.flatMap(Self.beats)
        let maximum = maxHeartRate.flatMap(Self.beats)
        // Both or neither when the maximum is below the average: not a pair the server keeps.
        if let average, let maximum, maximum < average {
        } else {
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

/// A workout from a file as it is imported: its derived id and the figures within the server's
/// bounds, for the CLI's import (a `Workout`) and the server's upload (a wire workout) alike.
package struct ImportableWorkout: Sendable, Hashable {
    package var id: UUID
    package var type: String
    package var durationSeconds: Int
    package var kilocalories: Double
    package var start: Date
    package var notes: String
    package var place: WorkoutPlace?
    package var distanceMetres: Double?
    package var ascentMetres: Double?
    package var averageHeartRate: Int?
    package var maxHeartRate: Int?
}
