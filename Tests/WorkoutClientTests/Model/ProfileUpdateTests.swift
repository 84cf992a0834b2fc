import Foundation
import Testing
@testable import WorkoutClient
import WorkoutProtocol

/// Which optional fields of an `UpdateProfileRequest` are present.
private func presentFields(_ m: Workout_V1_UpdateProfileRequest) -> Set<String> {
    var fields: Set<String> = []
    if m.hasFirstName { fields.insert("firstName") }
    if m.hasLastName { fields.insert("lastName") }
    if m.hasDisplayName { fields.insert("displayName") }
    if m.hasEmail { fields.insert("email") }
    if m.hasAge { fields.insert("age") }
    if m.hasHeightCm { fields.insert("heightCm") }
    if m.hasWeightKg { fields.insert("weightKg") }
    if m.hasFitnessGoal { fields.insert("fitnessGoal") }
    if m.hasTimeZone { fields.insert("timeZone") }
    if m.hasShareWithHousehold { fields.insert("shareWithHousehold") }
    return fields
}

/// An update and the fields its wire form must have present.
struct ProfileUpdateCase: Sendable, CustomTestStringConvertible {
    let name: String
    let update: ProfileUpdate
    let present: Set<String>

    var testDescription: String { name }

    static let all: [ProfileUpdateCase] = [
        .init(name: "nothing", update: ProfileUpdate(), present: []),
        .init(name: "first name", update: ProfileUpdate(firstName: "Anya"), present: ["firstName"]),
        .init(name: "empty last name", update: ProfileUpdate(lastName: ""), present: ["lastName"]),
        .init(name: "display name", update: ProfileUpdate(displayName: "A."), present: ["displayName"]),
        .init(name: "email", update: ProfileUpdate(email: "a@b.c"), present: ["email"]),
        .init(name: "age", update: ProfileUpdate(age: 35), present: ["age"]),
        .init(name: "cleared age", update: ProfileUpdate(age: .some(nil)), present: ["age"]),
        .init(name: "height", update: ProfileUpdate(heightCm: 170), present: ["heightCm"]),
        .init(name: "weight", update: ProfileUpdate(weightKg: 60.5), present: ["weightKg"]),
        .init(name: "cleared goal", update: ProfileUpdate(fitnessGoal: .some(nil)), present: ["fitnessGoal"]),
        .init(name: "goal", update: ProfileUpdate(fitnessGoal: .gainMuscle), present: ["fitnessGoal"]),
        .init(name: "zone", update: ProfileUpdate(timeZone: "UTC"), present: ["timeZone"]),
        .init(name: "not sharing", update: ProfileUpdate(shareWithHousehold: false), present: ["shareWithHousehold"]),
        .init(name: "revision only", update: ProfileUpdate(expectedRevision: 9), present: []),
        .init(
            name: "everything",
            update: ProfileUpdate(
                firstName: "A", lastName: "B", displayName: "C", email: "d@e.f", age: 40, heightCm: 180, weightKg: 80,
                fitnessGoal: .loseWeight, timeZone: "Europe/Paris", shareWithHousehold: true, expectedRevision: 3
            ),
            present: [
                "firstName", "lastName", "displayName", "email", "age", "heightCm", "weightKg", "fitnessGoal",
                "timeZone", "shareWithHousehold",
            ]
        ),
    ]
}

@Suite("Profile updates")
struct ProfileUpdateTests {
    @Test("The wire form has exactly the fields that are set", arguments: ProfileUpdateCase.all)
    func presentOnly(_ testCase: ProfileUpdateCase) throws {
        let wire = try testCase.update.wire()
        #expect(presentFields(wire) == testCase.present)
        #expect(testCase.update.isEmpty == testCase.present.isEmpty)
        #expect(ProfileUpdate(wire: wire) == testCase.update)
    }

    @Test("The wire form carries the values; a clear is 0 or UNSPECIFIED; no revision is 0")
    func values() throws {
        let wire = try ProfileUpdate(
            firstName: "A", email: "d@e.f", age: .some(nil), heightCm: 180.5, weightKg: .some(nil),
            fitnessGoal: .some(nil), shareWithHousehold: false, expectedRevision: 12
        ).wire()
        #expect(wire.firstName == "A" && wire.email == "d@e.f")
        #expect(wire.hasAge && wire.age == 0)
        #expect(wire.heightCm == 180.5)
        #expect(wire.hasWeightKg && wire.weightKg == 0)
        #expect(wire.hasFitnessGoal && wire.fitnessGoal == .unspecified)
        #expect(wire.hasShareWithHousehold && !wire.shareWithHousehold)
        #expect(wire.expectedRevision == 12)
        #expect(try ProfileUpdate(timeZone: "UTC").wire().expectedRevision == 0)

        var expected = Workout_V1_UpdateProfileRequest()
        expected.timeZone = "UTC"
        expected.fitnessGoal = .generalFitness
        expected.expectedRevision = 5
        #expect(try ProfileUpdate(fitnessGoal: .generalFitness, timeZone: "UTC", expectedRevision: 5).wire() == expected)
    }

    @Test("The update between two profiles has exactly the edited fields and the original's revision")
    func difference() throws {
        let original = Fixtures.profile
        var edited = original
        edited.timeZone = "Europe/Berlin"
        edited.weightKg = nil
        edited.fitnessGoal = .gainMuscle
        edited.role = .member // not the member's to change: ignored
        let update = ProfileUpdate(from: original, to: edited)
        #expect(update == ProfileUpdate(weightKg: .some(nil), fitnessGoal: .gainMuscle, timeZone: "Europe/Berlin", expectedRevision: 41))
        #expect(presentFields(try update.wire()) == ["weightKg", "fitnessGoal", "timeZone"])
        #expect(ProfileUpdate(from: original, to: original).isEmpty)
    }

    @Test("An age the wire cannot carry is refused in Swift terms, not clamped into a clear", arguments: [-1, 0, 4, 121, Int.max])
    func ageOutOfBounds(_ age: Int) {
        #expect {
            try ProfileUpdate(age: .some(age)).wire()
        } throws: { error in
            let error = error as? WorkoutError
            return error?.code == .invalidArgument && error?.field == "age"
                && error?.message == "age must be between 5 and 120 (got \(age))"
        }
    }

    @Test("JSON leaves out what is kept and writes null for what is cleared")
    func codable() throws {
        let update = ProfileUpdate(lastName: "", age: .some(nil), heightCm: 170, fitnessGoal: .some(nil), expectedRevision: 4)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(update), as: UTF8.self)
        #expect(text == #"{"age":null,"expectedRevision":4,"fitnessGoal":null,"heightCm":170,"lastName":""}"#)
        #expect(try JSONDecoder().decode(ProfileUpdate.self, from: Data(text.utf8)) == update)
        #expect(try JSONDecoder().decode(ProfileUpdate.self, from: Data("{}".utf8)) == ProfileUpdate())
        let set = try JSONDecoder().decode(ProfileUpdate.self, from: Data(#"{"fitnessGoal":"loseWeight","age":30}"#.utf8))
        #expect(set == ProfileUpdate(age: 30, fitnessGoal: .loseWeight))
    }
}
