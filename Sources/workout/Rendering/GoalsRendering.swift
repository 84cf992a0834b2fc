import WorkoutClient

/// How `workout goals` shows goals and progress: one line per goal, with what remains.
enum GoalsRendering {
    /// The goals and, for one's own, a day's progress.
    static func lines(_ member: MemberGoals, progress: GoalsProgress?, isToday: Bool, who: String?) -> [String] {
        var lines: [String] = []
        if member.goals.isEmpty {
            lines.append(who.map { "\($0) has no goals." } ?? "No goals set. Set some with: workout goals set --energy 2000 --steps 8000")
        } else {
            let since = member.effectiveFrom.map { " (since \(Format.longDay($0)))" } ?? ""
            lines.append("\(who.map { "Goals of \($0)" } ?? "Goals")\(since)")
            lines += goalLines(member.goals)
        }
        if member.isChild, let lowest = member.lowestEnergyKcal {
            lines.append("Under 18: energy targets start at \(Format.kcal(lowest)); an admin sets any target weight.")
        }
        guard let progress, !member.goals.isEmpty || !progress.day.goals.isEmpty else { return lines }
        lines.append("")
        lines.append("\(isToday ? "Today, " : "")\(Format.longDay(progress.day.day))")
        if progress.day.goals.isEmpty { lines.append("  no daily goals that day") }
        for goal in progress.day.goals { lines.append("  " + standing(goal)) }
        let week = progress.week
        lines.append("")
        lines.append("Week of \(Format.longDay(week.start))")
        for goal in week.goals { lines.append("  " + standing(goal)) }
        for count in week.daysMet {
            lines.append("  \(label(count.kind)): met on \(count.daysMet) of \(Format.count(count.daysWithGoal, "day"))")
        }
        let trend = progress.weight
        if let kg = trend.trendKg {
            var text = "Weight trend \(Format.kilograms(kg)), \(signed(trend.changePerWeekKg)) kg a week"
            if let target = trend.targetKg {
                if trend.reached {
                    text += "; at the target of \(Format.kilograms(target))"
                } else if let projected = trend.projected {
                    text += "; \(Format.kilograms(target)) around \(Format.longDay(projected)) at this rate"
                } else {
                    text += "; target \(Format.kilograms(target)), not nearer at this rate"
                }
            }
            lines.append("")
            lines.append(text)
        }
        return lines
    }

    /// One line per goal set.
    static func goalLines(_ goals: Goals) -> [String] {
        var lines: [String] = []
        if let energy = goals.energyKcal { lines.append("  Energy          \(Format.kcal(energy)) a day") }
        for (name, target) in [("Protein", goals.protein), ("Carbs", goals.carbs), ("Fat", goals.fat)] {
            guard let target else { continue }
            let amount = switch target {
            case .grams(let grams): Format.grams(grams)
            case .percentOfEnergy(let percent): "\(Format.number(percent)) % of energy"
            }
            lines.append("  \(name.padding(toLength: 16, withPad: " ", startingAt: 0))\(amount) a day")
        }
        if let steps = goals.dailySteps { lines.append("  Steps           \(Format.grouped(steps)) a day") }
        if let minutes = goals.weeklyActiveMinutes { lines.append("  Active minutes  \(Format.grouped(minutes)) a week") }
        if let workouts = goals.weeklyWorkouts { lines.append("  Workouts        \(Format.count(workouts, "workout")) a week") }
        if let weight = goals.targetWeightKg {
            lines.append("  Weight          \(Format.kilograms(weight))\(goals.targetWeightBy.map { " by \(Format.longDay($0))" } ?? "")")
        }
        return lines
    }

    /// "Steps: 6,200 of 8,000 (1,800 to go)", with a mark when met.
    static func standing(_ goal: GoalProgress) -> String {
        let (actual, target, left) = (amount(goal.kind, goal.actual), amount(goal.kind, goal.target), amount(goal.kind, abs(goal.remaining)))
        let rest = goal.remaining > 0 ? "\(left) to go" : goal.remaining < 0 ? "\(left) over" : "exactly"
        return "\(goal.met ? "✓" : " ") \(label(goal.kind)): \(actual) of \(target) (\(rest))"
    }

    private static func label(_ kind: GoalKind) -> String {
        switch kind {
        case .energy: "Energy"
        case .protein: "Protein"
        case .carbs: "Carbs"
        case .fat: "Fat"
        case .dailySteps: "Steps"
        case .weeklyActiveMinutes: "Active minutes"
        case .weeklyWorkouts: "Workouts"
        case .targetWeight: "Weight"
        }
    }

    private static func amount(_ kind: GoalKind, _ value: Double) -> String {
        switch kind {
        case .energy: Format.kcal(value)
        case .protein, .carbs, .fat: Format.grams(value)
        case .dailySteps, .weeklyWorkouts: Format.grouped(Int(value.rounded()))
        case .weeklyActiveMinutes: "\(Format.grouped(Int(value.rounded()))) min"
        case .targetWeight: Format.kilograms(value)
        }
    }

    private static func signed(_ value: Double) -> String {
        value > 0 ? "+" + Format.number(value, decimals: 2) : Format.number(value, decimals: 2)
    }
}
