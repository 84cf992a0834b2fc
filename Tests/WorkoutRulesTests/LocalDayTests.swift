import Foundation
import Testing
import TestSupport
import WorkoutRules

@Suite("Local days")
struct LocalDayTests {
    @Test("Every day from 2000 to 2100 round-trips through its epoch day and agrees with Foundation's calendar")
    func everyDayAgreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = LocalDay.earliestValid.epochDay
        let last = LocalDay.latestValid.epochDay
        #expect(first == 10_957)
        #expect(last - first + 1 == 36_890)
        var previous: LocalDay?
        var mismatches = 0
        for epochDay in first...last {
            let day = LocalDay(epochDay: epochDay)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(epochDay) * 86_400))
            // Foundation's weekday: 1 = Sunday ... 7 = Saturday; ISO: 1 = Monday ... 7 = Sunday.
            let isoWeekday = Int32((parts.weekday! + 5) % 7 + 1)
            if day.epochDay != epochDay || Int(day.year) != parts.year || Int(day.month) != parts.month
                || Int(day.day) != parts.day || day.isoWeekday != isoWeekday
                || LocalDay(year: day.year, month: day.month, day: day.day) != day
                || previous.map({ $0 < day && $0.adding(days: 1) == day }) == false {
                mismatches += 1
            }
            previous = day
        }
        #expect(mismatches == 0)
    }

    @Test("Epoch days are pinned around 1970 and far from it", arguments: [
        ("1970-01-01", Int32(0)), ("1969-12-31", -1), ("2000-01-01", 10_957), ("2000-02-29", 11_016),
        ("2026-03-29", 20_541), ("2100-12-31", 47_846), ("0000-03-01", -719_468), ("1600-02-29", -135_081),
    ])
    func pinnedEpochDays(text: String, epochDay: Int32) {
        let day = LocalDay(epochDay: epochDay)
        #expect(day.description == text)
        #expect(day.epochDay == epochDay)
    }

    @Test("Real dates from 2000 to 2100 are accepted", arguments: [
        (Int32(2000), Int32(1), Int32(1)), (2000, 2, 29), (2024, 2, 29), (2026, 3, 29), (2026, 4, 30), (2100, 12, 31),
    ])
    func validDates(year: Int32, month: Int32, day: Int32) throws {
        let value = try LocalDay(validating: year, month: month, day: day, field: "from_day")
        #expect((value.year, value.month, value.day) == (year, month, day))
        #expect(LocalDay(year: year, month: month, day: day) == value)
    }

    @Test("Impossible or out-of-range dates are refused naming the field", arguments: [
        (Int32(2026), Int32(2), Int32(29)), (2100, 2, 29), (2026, 4, 31), (2026, 0, 1), (2026, 13, 1), (2026, 1, 0),
        (2026, 1, 32), (1999, 12, 31), (2101, 1, 1), (0, 0, 0), (-2026, 1, 1),
    ])
    func invalidDates(year: Int32, month: Int32, day: Int32) {
        #expect(LocalDay(year: year, month: month, day: day) == nil)
        #expect(throws: DomainError.self) { try LocalDay(validating: year, month: month, day: day, field: "steps.day") }
        do {
            _ = try LocalDay(validating: year, month: month, day: day, field: "steps.day")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == "steps.day")
            #expect(error.message.hasPrefix("steps.day must be a real date from 2000-01-01 to 2100-12-31"))
        }
    }

    @Test("Days print as YYYY-MM-DD and order by date")
    func descriptionAndOrder() {
        #expect(LocalDay(year: 2026, month: 3, day: 29)!.description == "2026-03-29")
        #expect(LocalDay(year: 2000, month: 1, day: 5)!.description == "2000-01-05")
        #expect(LocalDay("2025-12-31") < LocalDay("2026-01-01"))
        #expect(LocalDay("2026-01-31") < LocalDay("2026-02-01"))
        #expect(LocalDay("2026-02-01") > LocalDay("2026-01-31"))
    }

    @Test("Adding days crosses months, leap days and years", arguments: [
        ("2024-02-28", Int32(1), "2024-02-29"), ("2024-02-29", 1, "2024-03-01"), ("2026-02-28", 1, "2026-03-01"),
        ("2025-12-31", 1, "2026-01-01"), ("2026-01-01", -1, "2025-12-31"), ("2026-03-29", 365, "2027-03-29"),
        ("2026-03-29", 0, "2026-03-29"),
    ])
    func adding(start: String, days: Int32, expected: String) {
        #expect(LocalDay(start).adding(days: days) == LocalDay(expected))
        #expect(LocalDay(start).days(to: LocalDay(expected)) == days)
    }

    @Test("The ISO week starts on the Monday on or before the day", arguments: [
        ("2026-03-29", "2026-03-23"), ("2026-03-23", "2026-03-23"), ("2026-03-24", "2026-03-23"),
        ("2026-01-01", "2025-12-29"), ("2000-01-01", "1999-12-27"), ("2024-03-03", "2024-02-26"),
        ("2100-12-31", "2100-12-27"),
    ])
    func isoWeekStart(day: String, monday: String) {
        let start = LocalDay(day).isoWeekStart
        #expect(start.description == monday)
        #expect(start.isoWeekday == 1)
    }

    @Test("An instant belongs to the day its zone's wall clock shows", arguments: [
        ("2026-03-28T22:59:59.999Z", "Europe/Berlin", "2026-03-28"),
        ("2026-03-28T23:00:00Z", "Europe/Berlin", "2026-03-29"),
        ("2026-03-29T21:59:59.999Z", "Europe/Berlin", "2026-03-29"),
        ("2026-03-29T22:00:00Z", "Europe/Berlin", "2026-03-30"),
        ("2026-03-11T03:30:00Z", "America/New_York", "2026-03-10"),
        ("2026-03-11T03:30:00Z", "UTC", "2026-03-11"),
        ("2026-03-11T03:30:00Z", "Asia/Kolkata", "2026-03-11"),
        ("2011-12-30T10:00:00Z", "Pacific/Apia", "2011-12-31"),
        ("2011-12-30T09:59:59Z", "Pacific/Apia", "2011-12-29"),
    ])
    func containingInstant(iso: String, zoneName: String, expected: String) {
        #expect(LocalDay.containing(instant: instantWithMilliseconds(iso), in: zone(zoneName)) == LocalDay(expected))
    }

    @Test("Instants before 1970 round down to the earlier day")
    func negativeInstants() {
        #expect(LocalDay.containing(instant: -1, in: zone("UTC")).description == "1969-12-31")
        #expect(LocalDay.containing(instant: -86_400_000, in: zone("UTC")).description == "1969-12-31")
        #expect(LocalDay.containing(instant: -86_400_001, in: zone("UTC")).description == "1969-12-30")
        #expect(LocalDay.containing(instant: 0, in: zone("UTC")).description == "1970-01-01")
    }

    @Test("A day lasts 23 or 25 hours on DST days, and other odd lengths where zones are odd", arguments: [
        ("UTC", "2026-03-29", 24 * hour),
        ("Europe/Berlin", "2026-03-28", 24 * hour),
        ("Europe/Berlin", "2026-03-29", 23 * hour),
        ("Europe/Berlin", "2026-10-25", 25 * hour),
        ("America/New_York", "2026-03-08", 23 * hour),
        ("America/New_York", "2026-11-01", 25 * hour),
        ("Australia/Lord_Howe", "2026-10-04", 23 * hour + hour / 2),
        ("Australia/Lord_Howe", "2026-04-05", 24 * hour + hour / 2),
        ("America/Santiago", "2026-09-06", 23 * hour),
        ("America/Santiago", "2026-04-04", 25 * hour),
        ("America/Havana", "2026-03-08", 23 * hour),
        ("America/Havana", "2026-11-01", 25 * hour),
        ("Pacific/Apia", "2011-12-29", 24 * hour),
        ("Pacific/Apia", "2011-12-30", 0),
        ("Pacific/Apia", "2011-12-31", 24 * hour),
        ("Asia/Kolkata", "2026-03-29", 24 * hour),
    ])
    func intervalLengths(zoneName: String, day: String, length: Int64) {
        let interval = LocalDay(day).interval(in: zone(zoneName))
        #expect(interval.upperBound - interval.lowerBound == length)
    }

    @Test("A day starts at midnight, the first of two midnights, or the first instant after a skipped midnight", arguments: [
        ("Europe/Berlin", "2026-03-29", "2026-03-28T23:00:00Z"),
        ("Europe/Berlin", "2026-03-30", "2026-03-29T22:00:00Z"),
        ("America/New_York", "2026-11-01", "2026-11-01T04:00:00Z"),
        ("America/New_York", "2026-11-02", "2026-11-02T05:00:00Z"),
        // Chile springs forward at midnight: the day begins at 01:00 local (-03:00).
        ("America/Santiago", "2026-09-06", "2026-09-06T04:00:00Z"),
        // Chile falls back at midnight to 23:00: the next midnight comes an hour later.
        ("America/Santiago", "2026-04-05", "2026-04-05T04:00:00Z"),
        // Cuba falls back from 01:00 to 00:00: midnight happens twice; the first counts.
        ("America/Havana", "2026-11-01", "2026-11-01T04:00:00Z"),
        ("America/Havana", "2026-03-08", "2026-03-08T05:00:00Z"),
        // Samoa skipped 2011-12-30: it "starts" where 2011-12-31 starts.
        ("Pacific/Apia", "2011-12-30", "2011-12-30T10:00:00Z"),
        ("Pacific/Apia", "2011-12-31", "2011-12-30T10:00:00Z"),
    ])
    func startInstants(zoneName: String, day: String, iso: String) {
        #expect(LocalDay(day).startInstant(in: zone(zoneName)) == instant(iso))
    }

    @Test("Day intervals tile time: each day's instants map back to that day", arguments: [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago",
        "America/Havana", "Pacific/Apia", "Asia/Kathmandu", "Pacific/Chatham", "Africa/Casablanca",
    ])
    func intervalsTile(zoneName: String) {
        let tz = zone(zoneName)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        var day = LocalDay("2010-01-01")
        var previousEnd: Int64?
        var failures: [String] = []
        while day <= LocalDay("2028-12-31") {
            let interval = day.interval(in: tz)
            if let previousEnd, previousEnd != interval.lowerBound { failures.append("\(day) does not start where the day before ends") }
            if !interval.isEmpty {
                if LocalDay.containing(instant: interval.lowerBound, in: tz) != day { failures.append("\(day) start") }
                if LocalDay.containing(instant: interval.upperBound - 1, in: tz) != day { failures.append("\(day) end") }
                if LocalDay.containing(instant: interval.lowerBound - 1, in: tz) >= day { failures.append("\(day) before start") }
                // Foundation agrees on where the day starts.
                let date = Date(timeIntervalSince1970: Double(interval.lowerBound + (interval.count > 0 ? Int64(interval.count) / 2 : 0)) / 1000)
                let foundationStart = Int64((calendar.startOfDay(for: date).timeIntervalSince1970 * 1000).rounded())
                if foundationStart != interval.lowerBound { failures.append("\(day) Foundation starts it at \(foundationStart), we at \(interval.lowerBound)") }
            }
            if interval.count > 26 * Int(hour) { failures.append("\(day) lasts \(interval.count) ms") }
            previousEnd = interval.upperBound
            day = day.adding(days: 1)
        }
        #expect(failures == [])
    }

    private func instantWithMilliseconds(_ iso: String) -> Int64 {
        guard let dot = iso.firstIndex(of: ".") else { return instant(iso) }
        let milliseconds = Int64(iso[iso.index(after: dot)..<iso.index(dot, offsetBy: 4)])!
        return instant(String(iso[..<dot]) + "Z") + milliseconds
    }
}
