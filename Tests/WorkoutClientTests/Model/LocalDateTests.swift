import Foundation
import Testing
@testable import WorkoutClient
import WorkoutProtocol

@Suite("Local dates")
struct LocalDateTests {
    @Test("Valid dates parse and print back", arguments: [
        "2026-11-22", "2000-01-01", "2100-12-31", "2024-02-29", "2000-02-29", "1969-12-31", "0000-01-01", "9999-12-31",
        "-0001-12-31", "+10000-01-01",
    ])
    func validText(text: String) throws {
        let date = try #require(LocalDate(text))
        #expect(date.description == text)
        #expect(String(describing: date) == text)
    }

    @Test("Parsing reads the parts")
    func parts() throws {
        let date = try #require(LocalDate("2026-11-22"))
        #expect((date.year, date.month, date.day) == (2026, 11, 22))
        #expect(LocalDate(year: 2026, month: 11, day: 22) == date)
    }

    @Test("Invalid dates and malformed text do not parse", arguments: [
        "2026-13-01", "2026-00-10", "2026-04-31", "2026-01-00", "2026-01-32",
        "2025-02-29", "2100-02-29", "1900-02-29",                      // not leap years
        "", "2026", "2026-1-22", "2026-01-2", "26-01-22", "20260-01-22", "2026/01/22", "2026-01-22T00:00",
        " 2026-01-22", "2026-01-22 ", "+2026-01-22", "-0000-01-01", "２０２６-01-22", "2026-01-2a", "2026--01-22",
    ])
    func invalidText(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test("February 29 exists only in leap years")
    func leapDays() {
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2100, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2026, month: 4, day: 31) == nil)
        #expect(LocalDate(year: 2026, month: 12, day: 31) != nil)
    }

    @Test("Codable as a plain string")
    func codableShape() throws {
        let date = try #require(LocalDate("2026-11-22"))
        #expect(String(decoding: try JSONEncoder().encode([date]), as: UTF8.self) == #"["2026-11-22"]"#)
        #expect(try JSONDecoder().decode([LocalDate].self, from: Data(#"["2026-11-22"]"#.utf8)) == [date])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDate].self, from: Data(#"["2026-02-30"]"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDate].self, from: Data(#"[{"year":2026,"month":1,"day":1}]"#.utf8))
        }
    }

    @Test("Dates order by year, then month, then day")
    func ordering() throws {
        let days = ["2026-11-22", "2025-12-31", "2026-01-30", "2026-11-03", "2026-02-01"].compactMap(LocalDate.init)
        #expect(days.sorted().map(\.description) == ["2025-12-31", "2026-01-30", "2026-02-01", "2026-11-03", "2026-11-22"])
    }

    @Test("Adding days crosses months, years and leap days", arguments: [
        ("2026-11-22", 1, "2026-11-23"), ("2026-11-30", 1, "2026-12-01"), ("2026-12-31", 1, "2027-01-01"),
        ("2024-02-28", 1, "2024-02-29"), ("2025-02-28", 1, "2025-03-01"), ("2024-03-01", -1, "2024-02-29"),
        ("2026-01-01", -1, "2025-12-31"), ("2000-01-01", 36_524, "2099-12-31"), ("1970-01-01", -1, "1969-12-31"),
        ("2026-11-22", 0, "2026-11-22"),
    ])
    func addingDays(start: String, days: Int, end: String) throws {
        let from = try #require(LocalDate(start))
        let to = from.adding(days: days)
        #expect(to.description == end)
        #expect(from.days(to: to) == days)
    }

    @Test("The day of an instant depends on the zone", arguments: [
        ("UTC", "2026-11-21"), ("Europe/Moscow", "2026-11-22"), ("America/New_York", "2026-11-21"),
        ("Pacific/Kiritimati", "2026-11-22"), ("Pacific/Pago_Pago", "2026-11-21"),
    ])
    func dayOfInstant(zone: String, expected: String) throws {
        // 2026-11-21T22:30:00Z
        let instant = Date(timeIntervalSince1970: 1_795_300_200)
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(LocalDate(instant, in: timeZone).description == expected)
    }

    @Test("Instants before 1970 and just before midnight fall on the right day")
    func dayBoundaries() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(LocalDate(Date(timeIntervalSince1970: -0.001), in: utc).description == "1969-12-31")
        #expect(LocalDate(Date(timeIntervalSince1970: 0), in: utc).description == "1970-01-01")
        #expect(LocalDate(Date(timeIntervalSince1970: 86_399.999), in: utc).description == "1970-01-01")
        #expect(LocalDate(Date(timeIntervalSince1970: -86_400), in: utc).description == "1969-12-31")
        #expect(LocalDate(Date(timeIntervalSince1970: -86_400.001), in: utc).description == "1969-12-30")
        #expect(LocalDate(Date(timeIntervalSince1970: 951_782_400), in: utc).description == "2000-02-29")
    }

    @Test("Today is the day of now in the zone")
    func today() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let before = LocalDate(Date(), in: zone)
        let today = LocalDate.today(in: zone)
        #expect(today >= before && before.days(to: today) <= 1)
    }

    @Test("Days convert to and from the wire; the unset value is nil")
    func wire() throws {
        let date = try #require(LocalDate("2026-11-22"))
        #expect(date.wire == Fixtures.day(2026, 11, 22))
        #expect(LocalDate(wire: date.wire) == date)
        #expect(LocalDate(wire: Workout_V1_LocalDate()) == nil)
        #expect(LocalDate(wire: Fixtures.day(2026, 2, 29)) == nil)
    }
}
