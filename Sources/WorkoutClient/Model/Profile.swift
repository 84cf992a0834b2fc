public import Foundation
import WorkoutProtocol

/// A member's profile: who they are and their settings.
///
/// Returned by login, registration, `Profile.GetProfile` and `Profile.UpdateProfile`, and
/// in change feeds when it changes. Change it with ``ProfileUpdate``.
public struct Profile: Sendable, Hashable, Codable, Identifiable {
    /// The member's id (their user id), chosen by the server at registration.
    public var id: UUID
    /// Email address, used to log in; stored lower-cased by the server.
    public var email: String
    /// First name.
    public var firstName: String
    /// Last name; may be empty.
    public var lastName: String
    /// Name shown in the household view; empty means ``firstName``.
    public var displayName: String
    /// Age in years, or `nil` if not stated.
    public var age: Int?
    /// Height in centimetres, or `nil` if not stated.
    public var heightCm: Double?
    /// Current body weight in kilograms, or `nil` if not stated. Logging a weight entry
    /// newer than every other one also sets it.
    public var weightKg: Double?
    /// Training goal, or `nil` if not stated.
    public var fitnessGoal: FitnessGoal?
    /// The member's IANA time zone, e.g. `"Europe/Moscow"`: the default zone of new
    /// records and of day queries.
    public var timeZone: String
    /// Whether the member appears in the household view.
    public var shareWithHousehold: Bool
    /// Role in the household.
    public var role: Role
    /// When the account was created.
    public var createdAt: Date
    /// The member revision at which the profile last changed.
    public var revision: UInt64
    /// The member's steps sources, most trusted first: a day's steps are the first of them that
    /// reported that day, else the day's largest source. Empty: every day counts its largest.
    public var stepsSourcePriority: [String]

    /// Creates a profile (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: The member's id.
    ///   - email: Email address.
    ///   - firstName: First name.
    ///   - lastName: Last name.
    ///   - displayName: Name in the household view; empty = first name.
    ///   - age: Age in years, `nil` if not stated.
    ///   - heightCm: Height in cm, `nil` if not stated.
    ///   - weightKg: Weight in kg, `nil` if not stated.
    ///   - fitnessGoal: Training goal, `nil` if not stated.
    ///   - timeZone: IANA time zone name.
    ///   - shareWithHousehold: Whether the member appears in the household view.
    ///   - role: Role in the household.
    ///   - createdAt: When the account was created.
    ///   - revision: The member revision of the profile's last change.
    ///   - stepsSourcePriority: The steps sources, most trusted first.
    public init(
        id: UUID, email: String, firstName: String, lastName: String = "", displayName: String = "",
        age: Int? = nil, heightCm: Double? = nil, weightKg: Double? = nil, fitnessGoal: FitnessGoal? = nil,
        timeZone: String, shareWithHousehold: Bool = false, role: Role = .member,
        createdAt: Date, revision: UInt64 = 0, stepsSourcePriority: [String] = []
    ) {
        self.id = id
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
        self.role = role
        self.createdAt = createdAt
        self.revision = revision
        self.stepsSourcePriority = stepsSourcePriority
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case id, email, firstName, lastName, displayName, age, heightCm, weightKg, fitnessGoal, timeZone
        case shareWithHousehold, role, createdAt, revision, stepsSourcePriority
    }

    /// Decodes a profile; one saved before `stepsSourcePriority` existed has none.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id), email: try container.decode(String.self, forKey: .email),
            firstName: try container.decode(String.self, forKey: .firstName),
            lastName: try container.decode(String.self, forKey: .lastName),
            displayName: try container.decode(String.self, forKey: .displayName),
            age: try container.decodeIfPresent(Int.self, forKey: .age),
            heightCm: try container.decodeIfPresent(Double.self, forKey: .heightCm),
            weightKg: try container.decodeIfPresent(Double.self, forKey: .weightKg),
            fitnessGoal: try container.decodeIfPresent(FitnessGoal.self, forKey: .fitnessGoal),
            timeZone: try container.decode(String.self, forKey: .timeZone),
            shareWithHousehold: try container.decode(Bool.self, forKey: .shareWithHousehold),
            role: try container.decode(Role.self, forKey: .role), createdAt: try container.decode(Date.self, forKey: .createdAt),
            revision: try container.decode(UInt64.self, forKey: .revision),
            stepsSourcePriority: try container.decodeIfPresent([String].self, forKey: .stepsSourcePriority) ?? []
        )
    }
}

// MARK: Wire

extension Profile {
    /// Creates a profile from the wire; 0 for age, height or weight means not stated (`nil`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Profile) {
        self.init(
            id: UUID(wireBytes: wire.userID), email: wire.email, firstName: wire.firstName,
            lastName: wire.lastName, displayName: wire.displayName,
            age: wire.age == 0 ? nil : Int(wire.age),
            heightCm: wire.heightCm == 0 ? nil : wire.heightCm,
            weightKg: wire.weightKg == 0 ? nil : wire.weightKg,
            fitnessGoal: FitnessGoal(wire: wire.fitnessGoal), timeZone: wire.timeZone,
            shareWithHousehold: wire.shareWithHousehold, role: Role(wire: wire.role),
            createdAt: Date(wireMilliseconds: wire.createdAtMs), revision: wire.revision,
            stepsSourcePriority: wire.stepsSourcePriority
        )
    }
}
