// GoalSet: a member's goals, each optional, and the bounds they are checked against.
//
// A set is what one entry of a member's goal history holds: the goals in effect from the
// entry's day until the next entry's. Checks name fields by the wire path the caller gave
// (e.g. `set.protein.percent_of_energy`) and state the bound in people's units.

/// What one goal is about.
package enum GoalKind: Int, CaseIterable, Sendable, Hashable, Comparable {
    /// Daily kcal eaten.
    case energy = 1
    /// Daily protein, grams.
    case protein
    /// Daily carbohydrates, grams.
    case carbs
    /// Daily fat, grams.
    case fat
    /// Daily steps.
    case dailySteps
    /// Weekly active minutes.
    case weeklyActiveMinutes
    /// Weekly workouts.
    case weeklyWorkouts
    /// Target weight, kg.
    case targetWeight

    /// The goals judged per day, in the order progress lists them.
    package static let daily: [GoalKind] = [.energy, .protein, .carbs, .fat, .dailySteps]
    /// The goals judged per ISO week.
    package static let weekly: [GoalKind] = [.weeklyActiveMinutes, .weeklyWorkouts]

    /// The name people type (the CLI's), e.g. `steps`.
    package var name: String {
        switch self {
        case .energy: "energy"
        case .protein: "protein"
        case .carbs: "carbs"
        case .fat: "fat"
        case .dailySteps: "steps"
        case .weeklyActiveMinutes: "active-minutes"
        case .weeklyWorkouts: "workouts"
        case .targetWeight: "weight"
        }
    }

    package static func < (lhs: GoalKind, rhs: GoalKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A daily macronutrient target.
package enum NutrientGoal: Equatable, Sendable {
    /// Grams a day.
    case grams(Double)
    /// Percent of the daily energy target.
    case percentOfEnergy(Double)
}

/// A member's goals; `nil` is no goal.
package struct GoalSet: Equatable, Sendable {
    /// Daily kcal eaten.
    package var energyKcal: Double?
    /// Daily protein.
    package var protein: NutrientGoal?
    /// Daily carbohydrates.
    package var carbs: NutrientGoal?
    /// Daily fat.
    package var fat: NutrientGoal?
    /// Daily steps.
    package var dailySteps: UInt32?
    /// Active minutes per ISO week.
    package var weeklyActiveMinutes: UInt32?
    /// Workouts per ISO week.
    package var weeklyWorkouts: UInt32?
    /// Target weight, kg.
    package var targetWeightKg: Double?
    /// The day to reach the target weight by.
    package var targetWeightBy: LocalDay?

    /// No goals.
    package static let none = GoalSet()

    /// Creates a set; every goal defaults to none.
    package init(energyKcal: Double? = nil, protein: NutrientGoal? = nil, carbs: NutrientGoal? = nil, fat: NutrientGoal? = nil,
                 dailySteps: UInt32? = nil, weeklyActiveMinutes: UInt32? = nil, weeklyWorkouts: UInt32? = nil,
                 targetWeightKg: Double? = nil, targetWeightBy: LocalDay? = nil) {
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

    /// The kinds this set has a goal for, in `GoalKind` order.
    package var kinds: [GoalKind] { GoalKind.allCases.filter(has) }

    /// Whether the set has a goal of `kind`.
    package func has(_ kind: GoalKind) -> Bool {
        switch kind {
        case .energy: energyKcal != nil
        case .protein: protein != nil
        case .carbs: carbs != nil
        case .fat: fat != nil
        case .dailySteps: dailySteps != nil
        case .weeklyActiveMinutes: weeklyActiveMinutes != nil
        case .weeklyWorkouts: weeklyWorkouts != nil
        case .targetWeight: targetWeightKg != nil
        }
    }

    /// Removes the goal of `kind` (the target weight with its day).
    package mutating func clear(_ kind: GoalKind) {
        switch kind {
        case .energy: energyKcal = nil
        case .protein: protein = nil
        case .carbs: carbs = nil
        case .fat: fat = nil
        case .dailySteps: dailySteps = nil
        case .weeklyActiveMinutes: weeklyActiveMinutes = nil
        case .weeklyWorkouts: weeklyWorkouts = nil
        case .targetWeight: targetWeightKg = nil; targetWeightBy = nil
        }
    }

    /// The goals of `other` laid over these: each goal `other` has replaces this set's.
    package func updating(with other: GoalSet) -> GoalSet {
        var result = self
        if let value = other.energyKcal { result.energyKcal = value }
        if let value = other.protein { result.protein = value }
        if let value = other.carbs { result.carbs = value }
        if let value = other.fat { result.fat = value }
        if let value = other.dailySteps { result.dailySteps = value }
        if let value = other.weeklyActiveMinutes { result.weeklyActiveMinutes = value }
        if let value = other.weeklyWorkouts { result.weeklyWorkouts = value }
        if let value = other.targetWeightKg {
            result.targetWeightKg = value
            result.targetWeightBy = other.targetWeightBy
        }
        return result
    }

    /// The daily target of a daily goal in its unit (kcal, grams, steps): a share of energy
    /// resolved to grams with 4 kcal per gram of protein or carbohydrate and 9 of fat.
    /// `nil` when the set has no such goal (or, for a share, no energy target).
    package func dailyTarget(_ kind: GoalKind) -> Double? {
        func grams(_ goal: NutrientGoal?, kcalPerGram: Double) -> Double? {
            switch goal {
            case .grams(let grams): grams
            case .percentOfEnergy(let percent): energyKcal.map { $0 * percent / 100 / kcalPerGram }
            case nil: nil
            }
        }
        switch kind {
        case .energy: return energyKcal
        case .protein: return grams(protein, kcalPerGram: 4)
        case .carbs: return grams(carbs, kcalPerGram: 4)
        case .fat: return grams(fat, kcalPerGram: 9)
        case .dailySteps: return dailySteps.map(Double.init)
        default: return nil
        }
    }

    /// The target of a weekly goal (minutes or workouts), or `nil`.
    package func weeklyTarget(_ kind: GoalKind) -> Double? {
        switch kind {
        case .weeklyActiveMinutes: weeklyActiveMinutes.map(Double.init)
        case .weeklyWorkouts: weeklyWorkouts.map(Double.init)
        default: nil
        }
    }
}

/// The bounds of each goal, in people's units.
package enum GoalLimits {
    /// Daily energy, kcal.
    package static let energyKcal: ClosedRange<Double> = 800...10_000
    /// A nutrient in grams a day.
    package static let nutrientGrams: ClosedRange<Double> = 1...1_000
    /// A nutrient as percent of energy.
    package static let nutrientPercent: ClosedRange<Double> = 1...100
    /// Daily steps.
    package static let dailySteps: ClosedRange<UInt32> = 100...100_000
    /// Active minutes a week (a week has 10,080 minutes).
    package static let weeklyActiveMinutes: ClosedRange<UInt32> = 1...10_080
    /// Workouts a week.
    package static let weeklyWorkouts: ClosedRange<UInt32> = 1...100
    /// Target weight, kg (the bounds of a weigh-in).
    package static let targetWeightKg: ClosedRange<Double> = 10...500
    /// How far back a change of goals may take effect, in days.
    package static let furthestBackDays: Int32 = 400
    /// The most kinds one request may clear (there are eight).
    package static let mostCleared = GoalKind.allCases.count

    /// Checks the goals a request sets (each named under `field`, e.g. `set.energy_kcal`).
    ///
    /// - Throws: `DomainError.invalid` naming the first field out of bounds.
    package static func check(_ goals: GoalSet, field: String) throws(DomainError) {
        if let value = goals.energyKcal { try Bounds.number(value, field: "\(field).energy_kcal", range: energyKcal) }
        for (name, goal) in [("protein", goals.protein), ("carbs", goals.carbs), ("fat", goals.fat)] {
            switch goal {
            case .grams(let grams): try Bounds.number(grams, field: "\(field).\(name).grams", range: nutrientGrams)
            case .percentOfEnergy(let percent): try Bounds.number(percent, field: "\(field).\(name).percent_of_energy", range: nutrientPercent)
            case nil: break
            }
        }
        if let value = goals.dailySteps { try Bounds.integer(value, field: "\(field).daily_steps", range: dailySteps) }
        if let value = goals.weeklyActiveMinutes { try Bounds.integer(value, field: "\(field).weekly_active_minutes", range: weeklyActiveMinutes) }
        if let value = goals.weeklyWorkouts { try Bounds.integer(value, field: "\(field).weekly_workouts", range: weeklyWorkouts) }
        if let value = goals.targetWeightKg { try Bounds.number(value, field: "\(field).target_weight_kg", range: targetWeightKg) }
        if goals.targetWeightBy != nil, goals.targetWeightKg == nil {
            throw .invalid("\(field).target_weight_by", "\(field).target_weight_by needs \(field).target_weight_kg: a day to reach a weight by needs the weight")
        }
    }

    /// Checks a whole set as it would be stored, `effectiveFrom` on: shares of energy need an
    /// energy target, take at most 100 % together, and (when the change sets the target weight,
    /// `settingTargetWeight`) the target weight's day lies after `effectiveFrom`. A day passed
    /// since stays: changing another goal later never trips over it.
    ///
    /// - Throws: `DomainError.invalid` naming the field under `field` that breaks a rule.
    package static func checkWhole(_ goals: GoalSet, effectiveFrom: LocalDay, field: String, settingTargetWeight: Bool = true) throws(DomainError) {
        var percents: [(String, Double)] = []
        for (name, goal) in [("protein", goals.protein), ("carbs", goals.carbs), ("fat", goals.fat)] {
            if case .percentOfEnergy(let percent) = goal { percents.append((name, percent)) }
        }
        if let (name, _) = percents.first, goals.energyKcal == nil {
            throw .invalid("\(field).\(name).percent_of_energy",
                           "\(field).\(name).percent_of_energy needs an energy target (energy_kcal): a share of energy is a share of that target")
        }
        let total = percents.reduce(0) { $0 + $1.1 }
        if total > 100 {
            let names = percents.map(\.0).joined(separator: ", ")
            throw .invalid("\(field).\(percents.last!.0).percent_of_energy",
                           "the shares of energy of \(names) add up to \(Bounds.formatted(total)) %; together they may take at most 100 %")
        }
        if settingTargetWeight, let by = goals.targetWeightBy, by <= effectiveFrom {
            throw .invalid("\(field).target_weight_by", "\(field).target_weight_by must be after \(effectiveFrom), the day the goals take effect (got \(by))")
        }
    }
}
