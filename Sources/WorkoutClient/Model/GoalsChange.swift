import WorkoutProtocol

/// The answer to ``WorkoutClient/setGoals(_:clearing:from:for:)``.
public struct GoalsChange: Sendable, Hashable, Codable {
    /// The entry now in the history: the whole set from its day on. `nil` only when nothing
    /// changed and the member has no goals.
    public var entry: GoalsEntry?
    /// True if the change left the goals as they were: nothing was written.
    public var unchanged: Bool
    /// The steps-goal achievements the change unlocked: a steps goal set or lowered from a past
    /// day can make days already walked complete a run.
    public var unlocked: [Achievement]

    /// Creates the answer (the server makes it; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - unchanged: Whether nothing changed.
    ///   - unlocked: The achievements it unlocked.
    public init(entry: GoalsEntry?, unchanged: Bool, unlocked: [Achievement] = []) {
        self.entry = entry
        self.unchanged = unchanged
        self.unlocked = unlocked
    }
}

// MARK: Wire

extension GoalsChange {
    /// The answer from the wire.
    init(wire: Workout_V1_SetGoalsResponse) {
        self.init(
            entry: wire.hasEntry && wire.entry.hasEffectiveFrom ? GoalsEntry(wire: wire.entry) : nil, unchanged: wire.unchanged,
            unlocked: wire.unlocked.map(Achievement.init(wire:)))
    }
}
