import WorkoutProtocol
import WorkoutRules

/// A member's goals (`Goals.GetGoals`, `Goals.SetGoals`): each is optional, `nil` is no goal.
///
/// As a change (``WorkoutClient/setGoals(_:clearing:from:for:)``) only the goals given are set;
/// the others stay. The server checks each against its bounds (PROTOCOL.md, "Goals") and the
/// household's rules for members under 18.
public struct Goals: Sendable, Hashable, Codable {
    /// Daily energy target, kcal eaten (800 through 10,000). Met within 10 %.
    public var energyKcal: Double?
    /// Daily protein target. Met when reached.
    public var protein: NutrientTarget?
    /// Daily carbohydrate target. Met within 10 %.
    public var carbs: NutrientTarget?
    /// Daily fat target. Met within 10 %.
    public var fat: NutrientTarget?
    /// Daily steps (100 through 100,000). Met when reached.
    public var dailySteps: Int?
    /// Active minutes per ISO week, Monday to Sunday (1 through 10,080).
    public var weeklyActiveMinutes: Int?
    /// Workouts per ISO week (1 through 100).
    public var weeklyWorkouts: Int?
    /// Target weight, kg (10 through 500).
    public var targetWeightKg: Double?
    /// The day to reach ``targetWeightKg`` by; only with it.
    public var targetWeightBy: LocalDate?

    /// Creates goals; every goal defaults to none.
    ///
    /// - Parameters:
    ///   - energyKcal: Daily kcal eaten.
    ///   - protein: Daily protein.
    ///   - carbs: Daily carbohydrates.
    ///   - fat: Daily fat.
    ///   - dailySteps: Daily steps.
    ///   - weeklyActiveMinutes: Active minutes a week.
    ///   - weeklyWorkouts: Workouts a week.
    ///   - targetWeightKg: Target weight, kg.
    ///   - targetWeightBy: The day to reach it by.
    public init(energyKcal: Double? = nil, protein: NutrientTarget? = nil, carbs: NutrientTarget? = nil, fat: NutrientTarget? = nil,
                dailySteps: Int? = nil, weeklyActiveMinutes: Int? = nil, weeklyWorkouts: Int? = nil,
                targetWeightKg: Double? = nil, targetWeightBy: LocalDate? = nil) {
        self.energyKcal = energyKcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.dailySteps = dailySteps
        self.weeklyActiveMinutes = weeklyActiveMinutes
        self.weeklyWorkouts = weeklyWorkouts
        self.targetWeightKg = targetWeightKg
        self.targetWeightBy = targetWeightBy
    }

    /// True when no goal is set.
    public var isEmpty: Bool { self == Goals() }
}

/// A daily macronutrient target.
public enum NutrientTarget: Sendable, Hashable, Codable {
    /// Grams a day (1 through 1,000).
    case grams(Double)
    /// Percent of the daily energy target (1 through 100; the goals need an energy target):
    /// 4 kcal per gram of protein or carbohydrate, 9 of fat.
    case percentOfEnergy(Double)
}

// MARK: Wire

extension Goals {
    /// Goals from the wire (a nutrient target with neither form reads as none).
    init(wire: Workout_V1_Goals) {
        func nutrient(_ present: Bool, _ target: Workout_V1_NutrientTarget) -> NutrientTarget? {
            guard present else { return nil }
            switch target.target {
            case .grams(let grams): return .grams(grams)
            case .percentOfEnergy(let percent): return .percentOfEnergy(percent)
            case nil: return nil
            }
        }
        self.init(
            energyKcal: wire.hasEnergyKcal ? wire.energyKcal : nil,
            protein: nutrient(wire.hasProtein, wire.protein), carbs: nutrient(wire.hasCarbs, wire.carbs), fat: nutrient(wire.hasFat, wire.fat),
            dailySteps: wire.hasDailySteps ? Int(wire.dailySteps) : nil,
            weeklyActiveMinutes: wire.hasWeeklyActiveMinutes ? Int(wire.weeklyActiveMinutes) : nil,
            weeklyWorkouts: wire.hasWeeklyWorkouts ? Int(wire.weeklyWorkouts) : nil,
            targetWeightKg: wire.hasTargetWeightKg ? wire.targetWeightKg : nil,
            targetWeightBy: wire.hasTargetWeightBy ? LocalDate(clampingWire: wire.targetWeightBy) : nil)
    }

    /// The goals as the wire message, counts checked against their bounds first (a count that
    /// does not fit the wire's field would otherwise become another number).
    ///
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the property, e.g. `goals.dailySteps`.
    func wire() throws(WorkoutError) -> Workout_V1_Goals {
        func nutrient(_ target: NutrientTarget) -> Workout_V1_NutrientTarget {
            var wire = Workout_V1_NutrientTarget()
            switch target {
            case .grams(let grams): wire.grams = grams
            case .percentOfEnergy(let percent): wire.percentOfEnergy = percent
            }
            return wire
        }
        func count(_ value: Int, _ name: String, _ wireName: String, _ range: ClosedRange<UInt32>) throws(WorkoutError) -> UInt32 {
            try WireCount.check(value, field: "goals.\(name)", wireField: "set.\(wireName)", range: Int(range.lowerBound)...Int(range.upperBound))
        }
        var wire = Workout_V1_Goals()
        if let energyKcal { wire.energyKcal = energyKcal }
        if let protein { wire.protein = nutrient(protein) }
        if let carbs { wire.carbs = nutrient(carbs) }
        if let fat { wire.fat = nutrient(fat) }
        if let dailySteps { wire.dailySteps = try count(dailySteps, "dailySteps", "daily_steps", GoalLimits.dailySteps) }
        if let weeklyActiveMinutes {
            wire.weeklyActiveMinutes = try count(weeklyActiveMinutes, "weeklyActiveMinutes", "weekly_active_minutes", GoalLimits.weeklyActiveMinutes)
        }
        if let weeklyWorkouts { wire.weeklyWorkouts = try count(weeklyWorkouts, "weeklyWorkouts", "weekly_workouts", GoalLimits.weeklyWorkouts) }
        if let targetWeightKg { wire.targetWeightKg = targetWeightKg }
        if let targetWeightBy { wire.targetWeightBy = targetWeightBy.wire }
        return wire
    }
}
