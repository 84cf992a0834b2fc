// ChildRules: what the household does differently for a member under 18.
//
// A child is a member whose stated age is 1 to 17, or whom an admin marked a child whatever
// their stated age (a teenager who gave no age, or one who typed an adult's). Lifting the mark
// does not make a member under 18 an adult. Their goals never aim below what their
// body needs: an energy target must be at least their maintenance estimate, and only an
// admin may give them a target weight. The estimate is deliberately generous (a rule that
// refuses too little would let a deficit through):
//
//     maintenance = 1.4 × (10 × weight kg + 6.25 × height cm − 5 × age + 5)
//
// the Mifflin–St Jeor resting rate with its higher (male) constant, times a light activity
// factor, rounded up to 10 kcal. Without a stated age, weight and height (a marked child may
// have stated none) it is 2,000 kcal; for a marked child who states an age of 18 or more the
// formula takes 17, the generous side.

/// The household's rules for members under 18.
package enum ChildRules {
    /// The ages that make a member a child.
    package static let childAges: ClosedRange<UInt32> = 1...17
    /// The lowest energy target of a child whose weight or height is not stated, kcal.
    package static let defaultLowestEnergyKcal: Double = 2_000

    /// Whether a member is a child.
    ///
    /// - Parameters:
    ///   - age: Their stated age (0 = not stated).
    ///   - marked: Whether an admin marked them a child.
    package static func isChild(age: UInt32, marked: Bool) -> Bool { marked || childAges.contains(age) }

    /// The lowest daily energy target a child may have: their maintenance estimate, kcal.
    ///
    /// - Parameters:
    ///   - age: Their stated age, or 0 when not stated (an age above 17 counts as 17).
    ///   - weightKg: Their weight, or 0 when not stated.
    ///   - heightCm: Their height, or 0 when not stated.
    package static func lowestEnergyKcal(age: UInt32, weightKg: Double, heightCm: Double) -> Double {
        guard age > 0, weightKg > 0, heightCm > 0 else { return defaultLowestEnergyKcal }
        let resting = 10 * weightKg + 6.25 * heightCm - 5 * Double(min(age, childAges.upperBound)) + 5
        return ((resting * 1.4) / 10).rounded(.up) * 10
    }

    /// Checks the goals a request sets for a child.
    ///
    /// - Parameters:
    ///   - goals: The goals the request sets.
    ///   - field: The request field holding them, e.g. `set`.
    ///   - lowestEnergyKcal: The child's ``lowestEnergyKcal(age:weightKg:heightCm:)``.
    ///   - byAdmin: Whether an admin makes the change.
    /// - Throws: `DomainError.invalid` for an energy target below maintenance;
    ///   `DomainError.permissionDenied` for a target weight not set by an admin.
    package static func check(_ goals: GoalSet, field: String, lowestEnergyKcal: Double, byAdmin: Bool) throws(DomainError) {
        if let energy = goals.energyKcal, energy < lowestEnergyKcal {
            throw .invalid("\(field).energy_kcal",
                           "\(field).energy_kcal must be at least \(Bounds.formatted(lowestEnergyKcal)) kcal for a member under 18, "
                           + "their maintenance estimate: the household sets no energy deficit for children (got \(Bounds.formatted(energy)))")
        }
        if goals.targetWeightKg != nil, !byAdmin {
            throw .permissionDenied("only an admin may set a target weight for a member under 18")
        }
    }
}
