import WorkoutProtocol

/// The answer to `Logging.ReportSteps`: the day after the report.
public struct StepsUpdate: Sendable, Hashable, Codable {
    /// The day after the report: every source's latest figure and the day's figure.
    public var day: StepsDay
    /// Whether the report was stored; `false` if the stored report of this source for
    /// this day is newer (or identical).
    public var applied: Bool

    /// Creates a steps-update result.
    ///
    /// - Parameters:
    ///   - day: The day after the report.
    ///   - applied: Whether the report was stored.
    public init(day: StepsDay, applied: Bool) {
        self.day = day
        self.applied = applied
    }
}

// MARK: Wire

extension StepsUpdate {
    /// Creates the result from the wire (`ReportStepsResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_ReportStepsResponse) {
        self.init(day: StepsDay(wire: wire.day), applied: wire.applied)
    }
}
