import Foundation
import Testing
@testable import WorkoutClient
import WorkoutProtocol

/// One case of the change feed's oneof, its wire form and the value it must become.
struct ChangeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let wire: Workout_V1_Change.OneOf_Item
    let item: Change.Item

    var testDescription: String { name }

    static let all: [ChangeCase] = [
        ChangeCase(name: "workout", wire: .workout(Fixtures.workoutWire), item: .workout(Fixtures.workout)),
        ChangeCase(name: "meal", wire: .meal(Fixtures.mealWire), item: .meal(Fixtures.meal)),
        ChangeCase(name: "weight", wire: .weight(Fixtures.weightEntryWire), item: .weight(Fixtures.weightEntry)),
        ChangeCase(name: "steps", wire: .steps(Fixtures.stepsDayWire), item: .steps(Fixtures.stepsDay)),
        ChangeCase(name: "achievement", wire: .achievement(Fixtures.achievementWire), item: .achievement(Fixtures.achievement)),
        ChangeCase(name: "profile", wire: .profile(Fixtures.profileWire), item: .profile(Fixtures.profile)),
        ChangeCase(name: "deleted meal", wire: .deleted(Fixtures.tombstoneWire), item: .deleted(.meal, Fixtures.uuid(0x30))),
        ChangeCase(name: "deleted workout", wire: .deleted(tombstone(.workout, 0x20)), item: .deleted(.workout, Fixtures.uuid(0x20))),
        ChangeCase(
            name: "deleted weight entry", wire: .deleted(tombstone(.weightEntry, 0x40)),
            item: .deleted(.weightEntry, Fixtures.uuid(0x40))
        ),
    ]

    static func tombstone(_ kind: Workout_V1_RecordKind, _ id: UInt8) -> Workout_V1_Tombstone {
        var m = Workout_V1_Tombstone()
        m.kind = kind
        m.id = Fixtures.idBytes(id)
        return m
    }
}

@Suite("Changes")
struct ChangeTests {
    @Test("Each kind of change converts from the wire", arguments: ChangeCase.all)
    func eachCase(_ testCase: ChangeCase) {
        let wire = Fixtures.change(testCase.wire)
        let change = Change(wire: wire)
        #expect(change == Change(revision: 42, changedAt: Fixtures.date(1_763_750_001_234), item: testCase.item))
    }

    @Test("Each kind of change survives JSON", arguments: ChangeCase.all)
    func eachCaseCodable(_ testCase: ChangeCase) throws {
        let change = Change(wire: Fixtures.change(testCase.wire))
        let data = try JSONEncoder().encode(change)
        #expect(try JSONDecoder().decode(Change.self, from: data) == change)
    }

    @Test("An item encodes as an object with one key naming its case")
    func itemShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let deleted = Change.Item.deleted(.weightEntry, Fixtures.uuid(0x40))
        let text = String(decoding: try encoder.encode(deleted), as: UTF8.self)
        #expect(text == #"{"deleted":{"id":"40414243-4445-4647-4849-4A4B4C4D4E4F","kind":"weightEntry"}}"#)

        let steps = String(decoding: try encoder.encode(Change.Item.steps(Fixtures.stepsDay)), as: UTF8.self)
        #expect(steps.hasPrefix(#"{"steps":{"day":"2026-11-21","#))
    }

    @Test("An item with no key or two keys does not decode")
    func badItemJSON() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Change.Item.self, from: Data("{}".utf8)) }
        let two = #"{"deleted":{"kind":"meal","id":"40414243-4445-4647-4849-4A4B4C4D4E4F"},"steps":{}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Change.Item.self, from: Data(two.utf8)) }
    }

    @Test("A change of a kind this library does not know has no item", arguments: [
        Workout_V1_RecordKind.unspecified, .UNRECOGNIZED(9),
    ])
    func unknownTombstone(kind: Workout_V1_RecordKind) {
        var tombstone = Fixtures.tombstoneWire
        tombstone.kind = kind
        let change = Change(wire: Fixtures.change(.deleted(tombstone)))
        #expect(change.item == nil)
        #expect(change.revision == 42)
    }

    @Test("A change with no item set (a newer server's oneof case) has no item")
    func unsetItem() {
        let wire = Fixtures.change(nil)
        #expect(Change(wire: wire).item == nil)
    }
}
