public import Foundation
import WorkoutProtocol

/// One meal with its food items.
///
/// To log one, create it (its ``id`` is a fresh time-ordered id) and keep the value until
/// the call succeeds: retrying with the same value never logs it twice. The server fills
/// in the output fields (``localDay``, ``totals``, ``revision``, ``createdAt``,
/// ``updatedAt``; ``timeZone`` when it was `nil`). Deleting a meal deletes its items.
public struct Meal: Sendable, Hashable, Codable, Identifiable {
    /// The record's id, chosen by the client; makes logging idempotent.
    public var id: UUID
    /// Breakfast, lunch, ...
    public var mealType: MealType
    /// When the meal was eaten.
    public var eatenAt: Date
    /// The IANA time zone the meal was logged in; `nil` in a request means the member's
    /// profile zone.
    public var timeZone: String?
    /// The local day of ``eatenAt`` in ``timeZone``. Output only: `nil` until stored.
    public var localDay: LocalDate?
    /// Optional name of the meal, 0...128 bytes, e.g. `"Dinner at grandma's"`.
    public var name: String
    /// The food items, 0...100 of them, in the order given.
    public var items: [FoodItem]
    /// Sums over ``items``. Output only (the server computes them; a new value starts
    /// with the sums of its items).
    public var totals: NutritionTotals
    /// The member revision of the write that last changed this meal; 0 until stored.
    /// Output only.
    public var revision: UInt64
    /// When the server first stored the meal. Output only.
    public var createdAt: Date?
    /// When the server last changed the meal. Output only.
    public var updatedAt: Date?

    /// Creates a meal.
    ///
    /// - Parameters:
    ///   - id: The record's id; a fresh time-ordered id by default.
    ///   - mealType: Breakfast, lunch, ...
    ///   - eatenAt: When it was eaten; now by default.
    ///   - timeZone: IANA zone it was logged in; `nil` = the profile's zone.
    ///   - name: Optional name of the meal.
    ///   - items: The food items.
    ///   - totals: Output only: sums over the items; computed from `items` when `nil`.
    ///   - localDay: Output only: its local day.
    ///   - revision: Output only: the revision of its last change.
    ///   - createdAt: Output only: when it was first stored.
    ///   - updatedAt: Output only: when it was last changed.
    public init(
        id: UUID = .timeOrdered(), mealType: MealType, eatenAt: Date = Date(), timeZone: String? = nil,
        name: String = "", items: [FoodItem] = [], totals: NutritionTotals? = nil, localDay: LocalDate? = nil,
        revision: UInt64 = 0, createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.mealType = mealType
        self.eatenAt = eatenAt
        self.timeZone = timeZone
        self.localDay = localDay
        self.name = name
        self.items = items
        self.totals = totals ?? NutritionTotals(summing: items)
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

// MARK: Wire

extension Meal {
    /// Creates a meal from the wire: an empty `time_zone` becomes `nil`, unset times (0)
    /// become `nil`, an unset or invalid `local_day` becomes `nil`, unset `totals` zero.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Meal) {
        self.init(
            id: UUID(wireBytes: wire.id), mealType: MealType(wire: wire.mealType),
            eatenAt: Date(wireMilliseconds: wire.eatenAtMs), timeZone: wire.timeZone.isEmpty ? nil : wire.timeZone,
            name: wire.name, items: wire.items.map(FoodItem.init(wire:)),
            totals: NutritionTotals(wire: wire.totals),
            localDay: wire.hasLocalDay ? LocalDate(wire: wire.localDay) : nil, revision: wire.revision,
            createdAt: Date(wireMillisecondsUnlessZero: wire.createdAtMs),
            updatedAt: Date(wireMillisecondsUnlessZero: wire.updatedAtMs)
        )
    }

    /// This meal as the wire message (`nil` zone as empty, `nil` times as 0, `nil` local
    /// day unset).
    var wire: Workout_V1_Meal {
        var message = Workout_V1_Meal()
        message.id = id.wireBytes
        message.mealType = mealType.wire
        message.eatenAtMs = eatenAt.wireMilliseconds
        message.timeZone = timeZone ?? ""
        if let localDay { message.localDay = localDay.wire }
        message.name = name
        message.items = items.map(\.wire)
        message.totals = totals.wire
        message.revision = revision
        message.createdAtMs = createdAt.wireMilliseconds
        message.updatedAtMs = updatedAt.wireMilliseconds
        return message
    }
}

// MARK: Validation

extension Meal {
    /// Checks this meal against the server's bounds (its own validation, run on the device), as
    /// `logMeal(_:)` and `updateMeal(_:expectedRevision:)` do before sending and an `Outbox` does before queueing:
    /// call it to refuse a form's values before saving. A value out of bounds is refused with
    /// its field, never clamped into range.
    ///
    /// - Parameter now: The time event times are checked against (the server takes them up
    ///   to a day ahead of its clock); now by default.
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the first field at fault by its
    ///   property path in ``WorkoutError/field`` (e.g. `items[3].calories`), with the server's message.
    public func validate(now: Date = Date()) throws(WorkoutError) {
        try RecordChecks.check(.meal(self), prefix: nil, now: now)
    }
}
