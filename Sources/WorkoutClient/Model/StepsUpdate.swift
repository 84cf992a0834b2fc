import WorkoutProtocol

/// The answer to `Logging.ReportSteps`: the day after the report.
public struct StepsUpdate: Sendable, Hashable, Codable {
    /// The day after the report: every source's latest figure and the day's figure.
    public var day: StepsDay
    /// Whether the report was stored; `false` if the stored report of this source for
    /// this day is newer (or identical).
    public var applied: Bool
    /// The steps-goal achievements the report unlocked (a day meeting the steps goal that
    /// completed a run of 3, 7 or 30 days).
    public var unlocked: [Achievement]

    /// Creates a steps-update result.
    ///
    /// - Parameters:
    ///   - day: The day after the report.
    ///   - applied: Whether the report was stored.
    ///   - unlocked: The achievements it unlocked.
    public init(day: StepsDay, applied: Bool, unlocked: [Achievement] = []) {
        self.day = day
        self.applied = applied
        self.unlocked = unlocked
    }
}

// MARK: Wire

extension StepsUpdate {
    /// Creates the result from the wire (`ReportStepsResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_ReportStepsResponse) {
        self.init(day: StepsDay(wire: wire.day), applied: wire.applied, unlocked: wire.unlocked.map(Achievement.init(wire:)))
    }
}
