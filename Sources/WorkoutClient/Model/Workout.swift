public import Foundation
import WorkoutProtocol

/// One completed workout.
///
/// To log one, create it (its ``id`` is a fresh time-ordered id) and keep the value until
/// the call succeeds: retrying with the same value (same id, same content) never logs it
/// twice. The server fills in the output fields (``localDay``, ``revision``,
/// ``createdAt``, ``updatedAt``; ``timeZone`` when it was `nil`).
public struct Workout: Sendable, Hashable, Codable, Identifiable {
    /// The record's id, chosen by the client; makes logging idempotent.
    public var id: UUID
    /// The kind of workout, free text (1...64 bytes); lower-case slugs are recommended:
    /// `"running"`, `"cycling"`, `"strength"`, `"yoga"`, `"swimming"`, `"walking"`, `"hiit"`.
    public var type: String
    /// Duration in seconds, 1...86,400.
    public var durationSeconds: Int
    /// Energy burned in kcal, 0...20,000.
    public var caloriesBurned: Double
    /// Number of exercises completed, 0...1,000.
    public var exercisesCompleted: Int
    /// When the workout started.
    public var performedAt: Date
    /// The IANA time zone the workout was logged in; `nil` in a request means the
    /// member's profile zone (the server's answer names the zone it used).
    public var timeZone: String?
    /// The local day of ``performedAt`` in ``timeZone``, which never changes afterwards.
    /// Output only: `nil` until the server has stored the workout.
    public var localDay: LocalDate?
    /// Free-text notes, 0...1,000 bytes.
    public var notes: String
    /// The member revision of the write that last changed this workout; 0 until stored.
    /// Output only.
    public var revision: UInt64
    /// When the server first stored the workout. Output only.
    public var createdAt: Date?
    /// When the server last changed the workout. Output only.
    public var updatedAt: Date?
    /// Distance covered, metres (1...1,000,000), or `nil` if not stated.
    public var distanceM: Double?
    /// Elevation climbed, metres (0...20,000), or `nil` if not stated.
    public var elevationGainM: Double?
    /// Average heart rate, beats a minute (25...250), or `nil` if not stated.
    public var averageHeartRate: Int?
    /// Highest heart rate, beats a minute (25...250, not below the average), or `nil`.
    public var maxHeartRate: Int?
    /// Steps taken during the workout (up to 200,000), or `nil` if not stated. They do not add
    /// to the day's steps, which come from steps reports.
    public var steps: Int?
    /// Where it was done, or `nil` if not stated.
    public var location: WorkoutLocation?

    /// Creates a workout.
    ///
    /// - Parameters:
    ///   - id: The record's id; a fresh time-ordered id by default.
    ///   - type: The kind of workout, e.g. `"running"`.
    ///   - durationSeconds: Duration in seconds.
    ///   - caloriesBurned: Energy burned, kcal.
    ///   - exercisesCompleted: Number of exercises completed.
    ///   - performedAt: When it started; now by default.
    ///   - timeZone: IANA zone it was logged in; `nil` = the profile's zone.
    ///   - notes: Free-text notes.
    ///   - localDay: Output only: its local day.
    ///   - revision: Output only: the revision of its last change.
    ///   - createdAt: Output only: when it was first stored.
    ///   - updatedAt: Output only: when it was last changed.
    public init(
        id: UUID = .timeOrdered(), type: String, durationSeconds: Int, caloriesBurned: Double = 0,
        exercisesCompleted: Int = 0, performedAt: Date = Date(), timeZone: String? = nil, notes: String = "",
        localDay: LocalDate? = nil, revision: UInt64 = 0, createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.type = type
        self.durationSeconds = durationSeconds
        self.caloriesBurned = caloriesBurned
        self.exercisesCompleted = exercisesCompleted
        self.performedAt = performedAt
        self.timeZone = timeZone
        self.notes = notes
        self.localDay = localDay
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

// MARK: Wire

extension Workout {
    /// Creates a workout from the wire: an empty `time_zone` becomes `nil`, unset times
    /// (0) become `nil`, an unset or invalid `local_day` becomes `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Workout) {
        self.init(
            id: UUID(wireBytes: wire.id), type: wire.workoutType, durationSeconds: Int(wire.durationSeconds),
            caloriesBurned: wire.caloriesBurned, exercisesCompleted: Int(wire.exercisesCompleted),
            performedAt: Date(wireMilliseconds: wire.performedAtMs),
            timeZone: wire.timeZone.isEmpty ? nil : wire.timeZone, notes: wire.notes,
            localDay: wire.hasLocalDay ? LocalDate(wire: wire.localDay) : nil, revision: wire.revision,
            createdAt: Date(wireMillisecondsUnlessZero: wire.createdAtMs),
            updatedAt: Date(wireMillisecondsUnlessZero: wire.updatedAtMs)
        )
        distanceM = wire.distanceM == 0 ? nil : wire.distanceM
        elevationGainM = wire.elevationGainM == 0 ? nil : wire.elevationGainM
        averageHeartRate = wire.averageHeartRate == 0 ? nil : Int(wire.averageHeartRate)
        maxHeartRate = wire.maxHeartRate == 0 ? nil : Int(wire.maxHeartRate)
        steps = wire.steps == 0 ? nil : Int(wire.steps)
        location = WorkoutLocation(wire: wire.location)
    }

    /// This workout as the wire message (`nil` zone as empty, `nil` times as 0, `nil`
    /// local day unset). The calls that send it check it first (``validate(now:)``); a count
    /// that would still not fit the wire is refused by name here, never clamped.
    ///
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` for a count below 0 or above 32 bits.
    func wire() throws(WorkoutError) -> Workout_V1_Workout {
        var message = Workout_V1_Workout()
        message.id = id.wireBytes
        message.workoutType = type
        message.durationSeconds = try WireCount.exact(durationSeconds, field: "durationSeconds", wireField: "workout.duration_seconds")
        message.caloriesBurned = caloriesBurned
        message.exercisesCompleted = try WireCount.exact(exercisesCompleted, field: "exercisesCompleted", wireField: "workout.exercises_completed")
        message.performedAtMs = performedAt.wireMilliseconds
        message.timeZone = timeZone ?? ""
        if let localDay { message.localDay = localDay.wire }
        message.notes = notes
        message.revision = revision
        message.createdAtMs = createdAt.wireMilliseconds
        message.updatedAtMs = updatedAt.wireMilliseconds
        message.distanceM = distanceM ?? 0
        message.elevationGainM = elevationGainM ?? 0
        message.averageHeartRate = try WireCount.exact(averageHeartRate ?? 0, field: "averageHeartRate", wireField: "workout.average_heart_rate")
        message.maxHeartRate = try WireCount.exact(maxHeartRate ?? 0, field: "maxHeartRate", wireField: "workout.max_heart_rate")
        message.steps = try WireCount.exact(steps ?? 0, field: "steps", wireField: "workout.steps")
        message.location = location?.wire ?? .unspecified
        return message
    }
}

// MARK: Validation

extension Workout {
    /// Checks this workout against the server's bounds (its own validation, run on the device), as
    /// `logWorkout(_:)` and `updateWorkout(_:expectedRevision:)` do before sending and an `Outbox` does before queueing:
    /// call it to refuse a form's values before saving. A value out of bounds is refused with
    /// its field, never clamped into range.
    ///
    /// - Parameter now: The time event times are checked against (the server takes them up
    ///   to a day ahead of its clock); now by default.
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the first field at fault by its
    ///   property path in ``WorkoutError/field`` (e.g. `durationSeconds`), with the server's message.
    public func validate(now: Date = Date()) throws(WorkoutError) {
        try RecordChecks.check(.workout(self), prefix: nil, now: now)
    }
}
