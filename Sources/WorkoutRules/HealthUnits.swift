/// Apple Health's units and meal times as the imports read them: the client's Apple Health
/// import and the server's Health Auto Export ingest convert the same way.
package enum HealthUnits {
    /// Energy in kcal from `unit` (`kcal`, `Cal`, `cal_th`, `kJ`, `cal`, `J`); `nil` for another unit.
    package static func kilocalories(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "kcal", "Cal", "cal_th": value
        case "kJ", "kj": value / 4.184
        case "cal": value / 1_000
        case "J": value / 4_184
        default: nil
        }
    }

    /// Mass in grams from `unit` (`mg`, `kg`, `oz`; anything else is taken as grams).
    package static func grams(_ value: Double, unit: String?) -> Double {
        switch unit {
        case "mg": value / 1_000
        case "kg": value * 1_000
        case "oz": value * 28.349523125
        default: value
        }
    }

    /// Body mass in kilograms from `unit` (`kg`, `lb`, `lbs`, `g`, `st`); `nil` for another unit.
    package static func kilograms(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "kg": value
        case "lb", "lbs": value * 0.45359237
        case "g": value / 1_000
        case "st": value * 6.35029318
        default: nil
        }
    }

    /// A length in metres from `unit` (`m`, `km`, `mi`, `ft`, `yd`, `cm`); `nil` for another unit.
    package static func metres(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "m": value
        case "km": value * 1_000
        case "mi": value * 1_609.344
        case "ft": value * 0.3048
        case "yd": value * 0.9144
        case "cm": value / 100
        default: nil
        }
    }

    /// A length with its unit as one text, as Apple Health's metadata writes it (`"1234 cm"`),
    /// in metres; `nil` when it is not a number and a known unit.
    package static func metres(quantity: String) -> Double? {
        let parts = quantity.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Double(parts[0]), value.isFinite else { return nil }
        return metres(value, unit: parts[1])
    }

    /// The meal a food entry eaten at `hour` (local, 0...23) belongs to when nothing says.
    package enum MealSlot: Sendable {
        case breakfast, lunch, dinner, snack
    }

    /// 4–11 breakfast, 11–16 lunch, 17–22 dinner, else a snack.
    package static func mealSlot(hour: Int) -> MealSlot {
        switch hour {
        case 4..<11: .breakfast
        case 11..<16: .lunch
        case 17..<22: .dinner
        default: .snack
        }
    }
}
