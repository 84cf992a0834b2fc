import Foundation
import Testing
@testable import WorkoutClient

/// The JSON the command-line tool prints: camelCase keys, ISO 8601 dates, days as
/// strings, enums as their names, absent optionals left out.
@Suite("JSON output")
struct CodableTests {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test("A workout prints cleanly and reads back")
    func workout() throws {
        let workout = Workout(
            id: Fixtures.uuid(0x20), type: "running", durationSeconds: 1_800, caloriesBurned: 310.5,
            exercisesCompleted: 3, performedAt: Date(timeIntervalSince1970: 1_795_300_200), timeZone: "Europe/Berlin",
            notes: "easy", localDay: Fixtures.localDate(2026, 11, 21), revision: 38
        )
        let text = String(decoding: try Self.encoder().encode(workout), as: UTF8.self)
        #expect(text == """
            {"caloriesBurned":310.5,"durationSeconds":1800,"exercisesCompleted":3,\
            "id":"20212223-2425-2627-2829-2A2B2C2D2E2F","localDay":"2026-11-21","notes":"easy",\
            "performedAt":"2026-11-21T22:30:00Z","revision":38,"timeZone":"Europe\\/Berlin","type":"running"}
            """)
        #expect(try Self.decoder().decode(Workout.self, from: Data(text.utf8)) == workout)
    }

    @Test("A profile's enums print as names and unstated values are left out")
    func profile() throws {
        var profile = Fixtures.profile
        profile.createdAt = Date(timeIntervalSince1970: 1_795_300_200)
        profile.age = nil
        let text = String(decoding: try Self.encoder().encode(profile), as: UTF8.self)
        #expect(text.contains(#""fitnessGoal":"improveEndurance""#))
        #expect(text.contains(#""role":"owner""#))
        #expect(text.contains(#""createdAt":"2026-11-21T22:30:00Z""#))
        #expect(!text.contains("age"))
        #expect(try Self.decoder().decode(Profile.self, from: Data(text.utf8)) == profile)
    }

    /// Encodes a value and decodes it back.
    static func roundTrip<Value: Codable & Equatable>(_ value: Value) throws -> Value {
        try decoder().decode(Value.self, from: encoder().encode(value))
    }

    @Test("Results with every kind of value read back equal")
    func results() throws {
        // Whole-second dates: ISO 8601 in JSON has no fraction.
        let at = Date(timeIntervalSince1970: 1_795_300_200)
        let changes = ChangesPage(
            changes: [
                Change(revision: 1, changedAt: at, item: .meal(Meal(id: Fixtures.uuid(1), mealType: .dinner, eatenAt: at, items: [Fixtures.foodItem]))),
                Change(revision: 2, changedAt: at, item: .deleted(.workout, Fixtures.uuid(2))),
                Change(revision: 3, changedAt: at, item: nil),
            ],
            revision: 3, hasMore: true, totals: Fixtures.totals
        )
        #expect(try Self.roundTrip(changes) == changes)
        let page = Page(items: [WeightEntry(id: Fixtures.uuid(3), weightKg: 70, measuredAt: at)], nextPageToken: PageToken(base64: "AQI="))
        #expect(try Self.roundTrip(page) == page)
        let stats = MethodStats(method: 1, name: "Meta.Health", calls: 3, statuses: ["OK": 2, "UNKNOWN(42)": 1], latency: Fixtures.latency)
        #expect(try Self.roundTrip(stats) == stats)
        let signedIn = SignedIn(
            token: Fixtures.sessionToken,
            session: SessionInfo(id: Fixtures.uuid(4), createdAt: at, lastUsedAt: at, expiresAt: at, isCurrent: true),
            profile: { var p = Fixtures.profile; p.createdAt = at; return p }(), totals: Totals(), revision: 0
        )
        #expect(try Self.roundTrip(signedIn) == signedIn)
    }
}
