public import Foundation
import WorkoutProtocol
import WorkoutRules

/// The profile of a new member, for `Auth.Register` (with an invite code and a password).
///
/// The server assigns the user id, the role (from the invite) and the creation time.
public struct NewMember: Sendable, Hashable, Codable {
    /// Email address, used to log in (3...254 bytes, with an `@`); must not be taken.
    public var email: String
    /// First name, 1...64 bytes.
    public var firstName: String
    /// Last name, 0...64 bytes.
    public var lastName: String
    /// Name shown in the household view, 0...64 bytes; empty means the first name.
    public var displayName: String
    /// Age in years (5...120), or `nil` if not stated.
    public var age: Int?
    /// Height in centimetres (50...272), or `nil` if not stated.
    public var heightCm: Double?
    /// Body weight in kilograms (10...500), or `nil` if not stated. Registration can also
    /// store it as a first weight entry (see `RegisterRequest.initial_weight_entry_id`).
    public var weightKg: Double?
    /// Training goal, or `nil` if not stated.
    public var fitnessGoal: FitnessGoal?
    /// The member's IANA time zone; the device's by default.
    public var timeZone: String
    /// Whether to appear in the household view.
    public var shareWithHousehold: Bool

    /// Creates a new member's profile.
    ///
    /// - Parameters:
    ///   - email: Email address.
    ///   - firstName: First name.
    ///   - lastName: Last name.
    ///   - displayName: Name in the household view; empty = first name.
    ///   - age: Age, `nil` if not stated.
    ///   - heightCm: Height, `nil` if not stated.
    ///   - weightKg: Weight, `nil` if not stated.
    ///   - fitnessGoal: Goal, `nil` if not stated.
    ///   - timeZone: IANA time zone; the device's by default.
    ///   - shareWithHousehold: Whether to appear in the household view; no by default.
    public init(
        email: String, firstName: String, lastName: String = "", displayName: String = "", age: Int? = nil,
        heightCm: Double? = nil, weightKg: Double? = nil, fitnessGoal: FitnessGoal? = nil,
        timeZone: String = TimeZone.current.identifier, shareWithHousehold: Bool = false
    ) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.displayName = displayName
        self.age = age
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.fitnessGoal = fitnessGoal
        self.timeZone = timeZone
        self.shareWithHousehold = shareWithHousehold
    }
}

// MARK: Wire

extension NewMember {
    /// Creates a new member's profile from the wire (`RegisterRequest.profile`); the
    /// fields the server ignores there (user id, role, creation time, revision) are
    /// dropped; 0 for age, height or weight means not stated.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Profile) {
        self.init(
            email: wire.email, firstName: wire.firstName, lastName: wire.lastName, displayName: wire.displayName,
            age: wire.age == 0 ? nil : Int(wire.age), heightCm: wire.heightCm == 0 ? nil : wire.heightCm,
            weightKg: wire.weightKg == 0 ? nil : wire.weightKg, fitnessGoal: FitnessGoal(wire: wire.fitnessGoal),
            timeZone: wire.timeZone, shareWithHousehold: wire.shareWithHousehold
        )
    }

    /// This profile as the wire message for `RegisterRequest.profile` (user id, role,
    /// creation time and revision unset).
    ///
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` for an age the wire cannot carry as one
    ///   (negative, or past 120): refused, not clamped into "not stated".
    func wire() throws(WorkoutError) -> Workout_V1_Profile {
        var message = Workout_V1_Profile()
        message.email = email
        message.firstName = firstName
        message.lastName = lastName
        message.displayName = displayName
        if let age { message.age = try WireCount.check(age, field: "member.age", wireField: "profile.age", range: RecordLimits.profileAge) }
        message.heightCm = heightCm ?? 0
        message.weightKg = weightKg ?? 0
        message.fitnessGoal = fitnessGoal.wire
        message.timeZone = timeZone
        message.shareWithHousehold = shareWithHousehold
        return message
    }
}
