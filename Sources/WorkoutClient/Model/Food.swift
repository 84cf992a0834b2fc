public import Foundation
import WorkoutProtocol

/// A food of the household's library (`Foods` service): figures per 100 g, named servings,
/// an optional brand and barcode. Meals log items from it with ``FoodItem/from(food:grams:name:)``.
public struct Food: Sendable, Hashable, Codable, Identifiable {
    /// Client-made id.
    public var id: UUID
    /// 1...128 bytes, e.g. `"Greek yogurt"`.
    public var name: String
    /// 0...64 bytes, e.g. `"Fage"`.
    public var brand: String
    /// EAN-8, UPC-A, EAN-13 or GTIN-14 digits with a valid check digit, or empty.
    public var barcode: String
    /// Figures per 100 g.
    public var per100g: Nutrients
    /// Named servings, at most 10; the first is the default.
    public var servings: [Serving]
    /// Who added it (`nil` in a food not stored yet, or whose adder left).
    public var addedBy: UUID?
    /// Its revision (0 before it is stored), for ``WorkoutClient/updateFood(_:expectedRevision:)``.
    public var revision: UInt64
    /// How often members logged it.
    public var timesLogged: Int
    /// Who logged it most, most first (at most 3).
    public var loggedMostBy: [FoodUse]

    /// Creates a food to add.
    ///
    /// - Parameters:
    ///   - id: Its id (a new time-ordered one by default).
    ///   - name: Its name.
    ///   - brand: Its brand, or empty.
    ///   - barcode: Its barcode digits, or empty.
    ///   - per100g: Figures per 100 g.
    ///   - servings: Named servings.
    public init(id: UUID = UUID.timeOrdered(), name: String, brand: String = "", barcode: String = "", per100g: Nutrients, servings: [Serving] = []) {
        self.id = id
        self.name = name
        self.brand = brand
        self.barcode = barcode
        self.per100g = per100g
        self.servings = servings
        self.addedBy = nil
        self.revision = 0
        self.timesLogged = 0
        self.loggedMostBy = []
    }
}

/// Nutrition of 100 g of a food.
public struct Nutrients: Sendable, Hashable, Codable {
    /// kcal, 0...900.
    public var calories: Double
    /// Protein, grams (0...100).
    public var proteinG: Double
    /// Carbohydrates, grams (0...100).
    public var carbsG: Double
    /// Fat, grams (0...100).
    public var fatG: Double

    /// Creates figures per 100 g.
    public init(calories: Double, proteinG: Double = 0, carbsG: Double = 0, fatG: Double = 0) {
        self.calories = calories
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
    }
}

/// A named portion of a food, e.g. a 30 g slice.
public struct Serving: Sendable, Hashable, Codable {
    /// 1...32 bytes, unique within the food.
    public var name: String
    /// Its weight, 0.1...5,000 g.
    public var grams: Double

    /// Creates a serving.
    public init(name: String, grams: Double) {
        self.name = name
        self.grams = grams
    }
}

/// One member's use of a food.
public struct FoodUse: Sendable, Hashable, Codable {
    /// The member.
    public var member: UUID
    /// Items they logged from it.
    public var timesLogged: Int
    /// The last time.
    public var lastLoggedAt: Date

    /// Creates a use (the server makes them; this is for previews and tests).
    public init(member: UUID, timesLogged: Int, lastLoggedAt: Date) {
        self.member = member
        self.timesLogged = timesLogged
        self.lastLoggedAt = lastLoggedAt
    }
}

// MARK: Wire

extension Food {
    /// A food from the wire.
    init(wire: Workout_V1_Food) {
        self.init(id: UUID(wireBytes: wire.id), name: wire.name, brand: wire.brand, barcode: wire.barcode,
                  per100g: Nutrients(calories: wire.per100G.calories, proteinG: wire.per100G.proteinG, carbsG: wire.per100G.carbsG, fatG: wire.per100G.fatG),
                  servings: wire.servings.map { Serving(name: $0.name, grams: $0.grams) })
        addedBy = UUID(wireBytesUnlessEmpty: wire.addedBy)
        revision = wire.revision
        timesLogged = Int(wire.timesLogged)
        loggedMostBy = wire.loggedMostBy.map {
            FoodUse(member: UUID(wireBytes: $0.userID), timesLogged: Int($0.timesLogged), lastLoggedAt: Date(wireMilliseconds: $0.lastLoggedAtMs))
        }
    }

    /// The food as the wire message (its input fields).
    var wire: Workout_V1_Food {
        var message = Workout_V1_Food()
        message.id = id.wireBytes
        message.name = name
        message.brand = brand
        message.barcode = barcode
        message.per100G.calories = per100g.calories
        message.per100G.proteinG = per100g.proteinG
        message.per100G.carbsG = per100g.carbsG
        message.per100G.fatG = per100g.fatG
        message.servings = servings.map { var serving = Workout_V1_Serving(); serving.name = $0.name; serving.grams = $0.grams; return serving }
        return message
    }
}
