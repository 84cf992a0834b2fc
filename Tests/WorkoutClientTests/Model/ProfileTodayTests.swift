import ClientTestSupport
import Foundation
import ServerTestSupport
import Testing
import WorkoutClient

/// "Today" is the member's day, in their profile's time zone, not the device's.
@Suite("Profile.today")
struct ProfileTodayTests {
    private static func profile(zone: String) -> Profile {
        Profile(id: UUID(), email: "ida@example.com", firstName: "Ida", timeZone: zone, createdAt: Date(timeIntervalSince1970: 0))
    }

    private static let utc = TimeZone(identifier: "UTC")!

    /// An instant, from its ISO 8601 text.
    private static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test("near midnight the member's day is not the device's", arguments: [
        // 23:30 in UTC is already the next morning in Auckland (UTC+13 in November).
        ("Pacific/Auckland", "2026-11-24T23:30:00Z", "2026-11-25", "2026-11-24"),
        // 02:00 in UTC is still the evening before in Los Angeles (UTC-8).
        ("America/Los_Angeles", "2026-11-25T02:00:00Z", "2026-11-24", "2026-11-25"),
        // Berlin turns to the 25th an hour before UTC does.
        ("Europe/Berlin", "2026-11-24T23:15:00Z", "2026-11-25", "2026-11-24"),
    ])
    func memberDay(zone: String, at: String, member: String, device: String) {
        let now = Self.instant(at)
        let profile = Self.profile(zone: zone)
        #expect(profile.today(at: now) == LocalDate(member))
        #expect(LocalDate(now, in: Self.utc) == LocalDate(device))
        #expect(profile.zone.identifier == zone)
    }

    @Test("a zone this device does not know counts as UTC")
    func unknownZone() {
        let profile = Self.profile(zone: "Mars/Olympus_Mons")
        #expect(profile.zone.secondsFromGMT() == 0)
        #expect(profile.today(at: Self.instant("2026-11-24T23:30:00Z")) == LocalDate("2026-11-24"))
    }

    @Test("the server's today is the profile's: a meal logged now is in mealsOfDay(profile.today()), not in UTC's day")
    func serverAgrees() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            // A zone whose day is not UTC's at this moment: UTC-11 before 10:00 UTC (still
            // yesterday), UTC+14 from then on (already tomorrow).
            let hour = Calendar(identifier: .gregorian).dateComponents(in: Self.utc, from: Date()).hour ?? 0
            var update = ProfileUpdate()
            update.timeZone = hour < 10 ? "Pacific/Pago_Pago" : "Pacific/Kiritimati"
            let profile = try await client.updateProfile(update).profile
            let meal = try await client.logMeal(Meal(mealType: .snack, eatenAt: Date(), name: "apple", items: [FoodItem(name: "apple", calories: 80)]))

            let memberDay = profile.today()
            #expect(memberDay != LocalDate.today(in: Self.utc))
            #expect(meal.meal.localDay == memberDay)
            #expect(try await client.mealsOfDay(memberDay).meals.map(\.id) == [meal.meal.id])
            #expect(try await client.mealsOfDay(LocalDate.today(in: Self.utc)).meals.isEmpty)
            client.close()
        }
    }
}
