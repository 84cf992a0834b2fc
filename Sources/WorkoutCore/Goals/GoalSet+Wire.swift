package import WorkoutProtocol
package import WorkoutRules

/// A goal set between the rules' value and the wire's `Goals`.
extension GoalSet {
    /// The goals present in a wire message.
    ///
    /// - Parameters:
    ///   - wire: The message; an absent field is no goal.
    ///   - field: Its path in the request, e.g. `set`.
    /// - Throws: `DomainError.invalid` for a nutrient target that has neither grams nor a share,
    ///   or a target day that is not a valid date.
    package init(wire: Workout_V1_Goals, field: String) throws {
        func nutrient(_ present: Bool, _ target: Workout_V1_NutrientTarget, _ name: String) throws -> NutrientGoal? {
            guard present else { return nil }
            switch target.target {
            case .grams(let grams): return .grams(grams)
            case .percentOfEnergy(let percent): return .percentOfEnergy(percent)
            case nil: throw DomainError.invalid("\(field).\(name)", "\(field).\(name) needs grams or percent_of_energy")
            }
        }
        self.init(
            energyKcal: wire.hasEnergyKcal ? wire.energyKcal : nil,
            protein: try nutrient(wire.hasProtein, wire.protein, "protein"),
            carbs: try nutrient(wire.hasCarbs, wire.carbs, "carbs"),
            fat: try nutrient(wire.hasFat, wire.fat, "fat"),
            dailySteps: wire.hasDailySteps ? wire.dailySteps : nil,
            weeklyActiveMinutes: wire.hasWeeklyActiveMinutes ? wire.weeklyActiveMinutes : nil,
            weeklyWorkouts: wire.hasWeeklyWorkouts ? wire.weeklyWorkouts : nil,
            targetWeightKg: wire.hasTargetWeightKg ? wire.targetWeightKg : nil,
            targetWeightBy: wire.hasTargetWeightBy ? try LocalDay(wire: wire.targetWeightBy, field: "\(field).target_weight_by") : nil)
    }

    /// The wire message of the set.
    package var wire: Workout_V1_Goals {
        func nutrient(_ goal: NutrientGoal) -> Workout_V1_NutrientTarget {
            var target = Workout_V1_NutrientTarget()
            switch goal {
            case .grams(let grams): target.grams = grams
            case .percentOfEnergy(let percent): target.percentOfEnergy = percent
            }
            return target
        }
        var wire = Workout_V1_Goals()
        if let energyKcal { wire.energyKcal = energyKcal }
        if let protein { wire.protein = nutrient(protein) }
        if let carbs { wire.carbs = nutrient(carbs) }
        if let fat { wire.fat = nutrient(fat) }
        if let dailySteps { wire.dailySteps = dailySteps }
        if let weeklyActiveMinutes { wire.weeklyActiveMinutes = weeklyActiveMinutes }
        if let weeklyWorkouts { wire.weeklyWorkouts = weeklyWorkouts }
        if let targetWeightKg { wire.targetWeightKg = targetWeightKg }
        if let targetWeightBy { wire.targetWeightBy = targetWeightBy.wire }
        return wire
    }
}

extension GoalKind {
    /// The rules' kind of a wire kind; `nil` for UNSPECIFIED and values this build does not know.
    package init?(wire: Workout_V1_GoalKind) {
        guard let kind = GoalKind(rawValue: wire.rawValue) else { return nil }
        self = kind
    }

    /// The wire kind.
    package var wire: Workout_V1_GoalKind { Workout_V1_GoalKind(rawValue: rawValue) ?? .unspecified }
}

extension GoalStanding {
    /// The wire progress of one goal.
    package var wire: Workout_V1_GoalProgress {
        var progress = Workout_V1_GoalProgress()
        progress.kind = kind.wire
        progress.target = target
        progress.actual = actual
        progress.remaining = remaining
        progress.met = met
        return progress
    }
}

extension DayStanding {
    /// The wire progress of a day.
    package var wire: Workout_V1_DayProgress {
        var progress = Workout_V1_DayProgress()
        progress.day = day.wire
        progress.goals = goals.map(\.wire)
        return progress
    }
}
