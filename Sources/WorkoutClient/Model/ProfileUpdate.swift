// ProfileUpdate: the request of `Profile.UpdateProfile`, where only the fields present
// change (proto3 `optional` fields, `has*` in the generated code).
//
// Age, height, weight and fitness goal can also be cleared ("not stated", 0 or
// UNSPECIFIED on the wire), so, like the profile fields they update (`Int?`, ...), each
// is an optional of an optional: `nil` leaves it as it is, `.some(nil)` clears it,
// `.some(value)` sets it. In JSON that is the JSON Merge Patch convention (RFC 7396): an
// absent key leaves the field, `null` clears it.

import WorkoutProtocol
import WorkoutRules

/// A change to the member's own profile (`Profile.UpdateProfile`): only the fields that
/// are set change; `nil` ones keep their value.
///
/// ```swift
/// var update = ProfileUpdate(expectedRevision: profile.revision)
/// update.timeZone = "Europe/Berlin"
/// update.weightKg = 71.5          // set
/// update.fitnessGoal = .some(nil) // clear: "not stated"
/// ```
public struct ProfileUpdate: Sendable, Hashable, Codable {
    /// New first name (1...64 bytes), or `nil` to keep it.
    public var firstName: String?
    /// New last name (0...64 bytes), or `nil` to keep it.
    public var lastName: String?
    /// New display name for the household view (0...64 bytes; empty = first name), or
    /// `nil` to keep it.
    public var displayName: String?
    /// New email (ALREADY_EXISTS if another member has it), or `nil` to keep it.
    public var email: String?
    /// New age (5...120): `nil` keeps it, `.some(nil)` clears it (not stated).
    public var age: Int??
    /// New height in cm (50...272): `nil` keeps it, `.some(nil)` clears it.
    public var heightCm: Double??
    /// New weight in kg (10...500; does not create a weight entry): `nil` keeps it,
    /// `.some(nil)` clears it.
    public var weightKg: Double??
    /// New fitness goal: `nil` keeps it, `.some(nil)` clears it (not stated).
    public var fitnessGoal: FitnessGoal??
    /// New IANA time zone (records already logged keep theirs), or `nil` to keep it.
    public var timeZone: String?
    /// Whether to appear in the household view, or `nil` to keep the setting.
    public var shareWithHousehold: Bool?
    /// New steps sources, most trusted first (at most 16, no two alike), or `nil` to keep them;
    /// an empty list goes back to each day's largest source.
    public var stepsSourcePriority: [String]?
    /// If set, the update applies only while the profile's revision still equals it;
    /// otherwise the call fails with ABORTED. `nil` = unconditional.
    public var expectedRevision: UInt64?

    /// Creates an update; every field is left unchanged unless given.
    ///
    /// - Parameters:
    ///   - firstName: New first name.
    ///   - lastName: New last name.
    ///   - displayName: New display name.
    ///   - email: New email.
    ///   - age: New age; `.some(nil)` clears it.
    ///   - heightCm: New height; `.some(nil)` clears it.
    ///   - weightKg: New weight; `.some(nil)` clears it.
    ///   - fitnessGoal: New goal; `.some(nil)` clears it.
    ///   - timeZone: New time zone.
    ///   - shareWithHousehold: New household-view setting.
    ///   - stepsSourcePriority: New steps sources, most trusted first.
    ///   - expectedRevision: The profile revision the update is conditional on.
    public init(
        firstName: String? = nil, lastName: String? = nil, displayName: String? = nil, email: String? = nil,
        age: Int?? = nil, heightCm: Double?? = nil, weightKg: Double?? = nil, fitnessGoal: FitnessGoal?? = nil,
        timeZone: String? = nil, shareWithHousehold: Bool? = nil, stepsSourcePriority: [String]? = nil,
        expectedRevision: UInt64? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.displayName = displayName
        self.email = email
        self.age = age
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.fitnessGoal = fitnessGoal
        self.timeZone = timeZone
        self.shareWithHousehold = shareWithHousehold
        self.stepsSourcePriority = stepsSourcePriority
        self.expectedRevision = expectedRevision
    }

    /// The update that turns one profile into an edited copy: exactly the fields that
    /// differ, conditional on the original's revision.
    ///
    /// - Parameters:
    ///   - original: The profile as the server last returned it.
    ///   - edited: The profile with the member's edits (fields the server does not let a
    ///     member change, such as role, are ignored).
    public init(from original: Profile, to edited: Profile) {
        func changed<Value: Equatable>(_ keyPath: KeyPath<Profile, Value>) -> Value? {
            original[keyPath: keyPath] == edited[keyPath: keyPath] ? nil : edited[keyPath: keyPath]
        }
        self.init(
            firstName: changed(\.firstName), lastName: changed(\.lastName), displayName: changed(\.displayName),
            email: changed(\.email), age: changed(\.age), heightCm: changed(\.heightCm), weightKg: changed(\.weightKg),
            fitnessGoal: changed(\.fitnessGoal), timeZone: changed(\.timeZone),
            shareWithHousehold: changed(\.shareWithHousehold), stepsSourcePriority: changed(\.stepsSourcePriority),
            expectedRevision: original.revision
        )
    }

    /// Whether the update changes nothing (every field is `nil`; ``expectedRevision`` aside).
    public var isEmpty: Bool {
        firstName == nil && lastName == nil && displayName == nil && email == nil && age == nil && heightCm == nil
            && weightKg == nil && fitnessGoal == nil && timeZone == nil && shareWithHousehold == nil && stepsSourcePriority == nil
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case firstName, lastName, displayName, email, age, heightCm, weightKg, fitnessGoal, timeZone
        case shareWithHousehold, stepsSourcePriority, expectedRevision
    }

    /// Decodes an update: an absent key keeps the field; for age, height, weight and
    /// goal, `null` clears it.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for values of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func clearable<Value: Decodable>(_ key: CodingKeys) throws -> Value?? {
            guard container.contains(key) else { return nil }
            return try container.decodeNil(forKey: key) ? .some(nil) : .some(try container.decode(Value.self, forKey: key))
        }
        self.init(
            firstName: try container.decodeIfPresent(String.self, forKey: .firstName),
            lastName: try container.decodeIfPresent(String.self, forKey: .lastName),
            displayName: try container.decodeIfPresent(String.self, forKey: .displayName),
            email: try container.decodeIfPresent(String.self, forKey: .email),
            age: try clearable(.age), heightCm: try clearable(.heightCm), weightKg: try clearable(.weightKg),
            fitnessGoal: try clearable(.fitnessGoal),
            timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone),
            shareWithHousehold: try container.decodeIfPresent(Bool.self, forKey: .shareWithHousehold),
            stepsSourcePriority: try container.decodeIfPresent([String].self, forKey: .stepsSourcePriority),
            expectedRevision: try container.decodeIfPresent(UInt64.self, forKey: .expectedRevision)
        )
    }

    /// Encodes an update: fields that keep their value are left out; a cleared age,
    /// height, weight or goal is `null`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func clearable<Value: Encodable>(_ value: Value??, _ key: CodingKeys) throws {
            switch value {
            case .none: break
            case .some(.none): try container.encodeNil(forKey: key)
            case .some(.some(let value)): try container.encode(value, forKey: key)
            }
        }
        try container.encodeIfPresent(firstName, forKey: .firstName)
        try container.encodeIfPresent(lastName, forKey: .lastName)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        try container.encodeIfPresent(email, forKey: .email)
        try clearable(age, .age)
        try clearable(heightCm, .heightCm)
        try clearable(weightKg, .weightKg)
        try clearable(fitnessGoal, .fitnessGoal)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(shareWithHousehold, forKey: .shareWithHousehold)
        try container.encodeIfPresent(stepsSourcePriority, forKey: .stepsSourcePriority)
        try container.encodeIfPresent(expectedRevision, forKey: .expectedRevision)
    }
}

// MARK: Wire

extension ProfileUpdate {
    /// Creates an update from the wire: absent fields become `nil`; a present age, height
    /// or weight of 0, or a present UNSPECIFIED goal, becomes `.some(nil)` (clear);
    /// `expected_revision` 0 becomes `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_UpdateProfileRequest) {
        self.init(
            firstName: wire.hasFirstName ? wire.firstName : nil,
            lastName: wire.hasLastName ? wire.lastName : nil,
            displayName: wire.hasDisplayName ? wire.displayName : nil,
            email: wire.hasEmail ? wire.email : nil,
            age: wire.hasAge ? .some(wire.age == 0 ? nil : Int(wire.age)) : nil,
            heightCm: wire.hasHeightCm ? .some(wire.heightCm == 0 ? nil : wire.heightCm) : nil,
            weightKg: wire.hasWeightKg ? .some(wire.weightKg == 0 ? nil : wire.weightKg) : nil,
            fitnessGoal: wire.hasFitnessGoal ? .some(FitnessGoal(wire: wire.fitnessGoal)) : nil,
            timeZone: wire.hasTimeZone ? wire.timeZone : nil,
            shareWithHousehold: wire.hasShareWithHousehold ? wire.shareWithHousehold : nil,
            stepsSourcePriority: wire.hasStepsSourcePriority ? wire.stepsSourcePriority.sources : nil,
            expectedRevision: wire.expectedRevision == 0 ? nil : wire.expectedRevision
        )
    }

    /// This update as the wire request: exactly the fields that are not `nil` are present
    /// (a cleared age, height or weight as 0, a cleared goal as UNSPECIFIED).
    ///
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` for an age the wire cannot carry as one
    ///   (negative, or past 120): refused, not clamped into "cleared".
    func wire() throws(WorkoutError) -> Workout_V1_UpdateProfileRequest {
        var message = Workout_V1_UpdateProfileRequest()
        if let firstName { message.firstName = firstName }
        if let lastName { message.lastName = lastName }
        if let displayName { message.displayName = displayName }
        if let email { message.email = email }
        switch age {
        case .none: break
        case .some(.none): message.age = 0
        case .some(.some(let years)):
            message.age = try WireCount.check(years, field: "age", wireField: "age", range: RecordLimits.profileAge)
        }
        if let heightCm { message.heightCm = heightCm ?? 0 }
        if let weightKg { message.weightKg = weightKg ?? 0 }
        if let fitnessGoal { message.fitnessGoal = fitnessGoal.wire }
        if let timeZone { message.timeZone = timeZone }
        if let shareWithHousehold { message.shareWithHousehold = shareWithHousehold }
        if let stepsSourcePriority { message.stepsSourcePriority.sources = stepsSourcePriority }
        message.expectedRevision = expectedRevision ?? 0
        return message
    }
}
