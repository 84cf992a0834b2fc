import WorkoutProtocol

/// A member's goals as `Goals.GetGoals` answers them: those in effect today, the history, and
/// whether the household's rules for members under 18 apply.
public struct MemberGoals: Sendable, Hashable, Codable {
    /// The goals in effect today in the member's zone (empty when none).
    public var goals: Goals
    /// The day they took effect; `nil` when no goals were ever set.
    public var effectiveFrom: LocalDate?
    /// The history, newest first, at most 100 entries.
    public var history: [GoalsEntry]
    /// Whether the member is under 18: no energy target below ``lowestEnergyKcal``, and a
    /// target weight only from an admin.
    public var isChild: Bool
    /// For a member under 18, the lowest energy target that can be set (their maintenance
    /// estimate), kcal; `nil` for adults.
    public var lowestEnergyKcal: Double?

    /// Creates the answer (the server makes it; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - goals: Goals in effect today.
    ///   - effectiveFrom: Their first day.
    ///   - history: Entries, newest first.
    ///   - isChild: Whether the member is under 18.
    ///   - lowestEnergyKcal: Their lowest energy target.
    public init(goals: Goals, effectiveFrom: LocalDate?, history: [GoalsEntry], isChild: Bool, lowestEnergyKcal: Double?) {
        self.goals = goals
        self.effectiveFrom = effectiveFrom
        self.history = history
        self.isChild = isChild
        self.lowestEnergyKcal = lowestEnergyKcal
    }
}

// MARK: Wire

extension MemberGoals {
    /// The answer from the wire.
    init(wire: Workout_V1_GetGoalsResponse) {
        self.init(goals: Goals(wire: wire.goals), effectiveFrom: wire.hasEffectiveFrom ? LocalDate(clampingWire: wire.effectiveFrom) : nil,
                  history: wire.history.map(GoalsEntry.init(wire:)), isChild: wire.child,
                  lowestEnergyKcal: wire.child ? wire.lowestEnergyKcal : nil)
    }
}
