import WorkoutProtocol

/// The answer to `Logging.ImportRecords`: what one batch stored and what it left unchanged.
public struct ImportedBatch: Sendable, Hashable, Codable {
    /// Workouts stored by this batch.
    public var workouts: Int
    /// Meals stored.
    public var meals: Int
    /// Weigh-ins stored.
    public var weights: Int
    /// Steps reports applied.
    public var stepsReports: Int
    /// Records that changed nothing: stored before with the same content (an import run
    /// again, or resumed), or a steps report not newer than the stored one.
    public var unchanged: Int
    /// Achievements the batch unlocked.
    public var unlocked: [Achievement]
    /// The member's totals after the batch.
    public var totals: Totals
    /// The member's revision after the batch.
    public var revision: UInt64

    /// Records the batch stored (everything but `unchanged`).
    public var stored: Int { workouts + meals + weights + stepsReports }

    /// Creates a batch result.
    ///
    /// - Parameters:
    ///   - workouts: Workouts stored.
    ///   - meals: Meals stored.
    ///   - weights: Weigh-ins stored.
    ///   - stepsReports: Steps reports applied.
    ///   - unchanged: Records that changed nothing.
    ///   - unlocked: Achievements unlocked.
    ///   - totals: Totals after the batch.
    ///   - revision: Revision after the batch.
    public init(
        workouts: Int = 0, meals: Int = 0, weights: Int = 0, stepsReports: Int = 0, unchanged: Int = 0,
        unlocked: [Achievement] = [], totals: Totals, revision: UInt64
    ) {
        self.workouts = workouts
        self.meals = meals
        self.weights = weights
        self.stepsReports = stepsReports
        self.unchanged = unchanged
        self.unlocked = unlocked
        self.totals = totals
        self.revision = revision
    }
}

// MARK: Wire

extension ImportedBatch {
    /// Creates the result from the wire (`ImportRecordsResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_ImportRecordsResponse) {
        self.init(
            workouts: Int(wire.workouts), meals: Int(wire.meals), weights: Int(wire.weightEntries),
            stepsReports: Int(wire.stepsReports), unchanged: Int(wire.unchanged),
            unlocked: wire.unlocked.map(Achievement.init(wire:)), totals: Totals(wire: wire.totals), revision: wire.revision
        )
    }
}
