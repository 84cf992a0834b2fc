import ArgumentParser
import Foundation
import Testing
import WorkoutClient
@testable import workout

/// `--at`: the forms accepted, those refused, and the instants they mean.
@Suite("Time arguments (--at)")
struct TimeArgumentTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// 2025-06-01T05:30:00Z, 07:30 in Berlin (CEST, +02:00).
    static let juneMorning = Date(timeIntervalSince1970: 1_748_755_800)

    @Test("Accepted forms parse to what they say", arguments: [
        ("07:30", TimeArgument.clock(hour: 7, minute: 30)),
        ("7:05", .clock(hour: 7, minute: 5)),
        ("00:00", .clock(hour: 0, minute: 0)),
        ("23:59", .clock(hour: 23, minute: 59)),
        ("2025-06-01T07:30", .local(day: LocalDate(year: 2025, month: 6, day: 1)!, hour: 7, minute: 30, second: 0)),
        ("2025-06-01 07:30:15", .local(day: LocalDate(year: 2025, month: 6, day: 1)!, hour: 7, minute: 30, second: 15)),
        ("2025-06-01T07:30:00+02:00", .instant(juneMorning)),
        ("2025-06-01T05:30Z", .instant(juneMorning)),
        ("2025-06-01T07:30:00+0200", .instant(juneMorning)),
        ("2025-06-01T00:30-05", .instant(juneMorning)),
        ("2025-06-01T05:30:00.250Z", .instant(juneMorning.addingTimeInterval(0.25))),
        (" 07:30 ", .clock(hour: 7, minute: 30)),
    ])
    func accepted(text: String, expected: TimeArgument) throws {
        #expect(try TimeArgument(parsing: text) == expected)
    }

    @Test("Malformed or impossible times are refused with the accepted forms named", arguments: [
        "", "7", "730", "24:00", "12:60", "12:5", "noon", "2025-06-01", "2025-06-01T7:30", "2025-02-30T10:00",
        "2025-13-01T10:00", "2025-06-01T07:30+25:00", "2025-06-01T07:30:00+02:00x", "2025-06-01T07:30:61",
        "2025-06-01T07:30:00.Z", "25-06-01T07:30", "2025/06/01 07:30",
    ])
    func refused(text: String) {
        #expect {
            try TimeArgument(parsing: text)
        } throws: { error in
            (error as? ValidationError)?.message.contains("HH:MM") == true
        }
    }

    @Test("HH:MM means that time today in the local zone")
    func clockIsToday() throws {
        let now = Date(timeIntervalSince1970: 1_748_790_000)  // 2025-06-01T15:00:00Z, 17:00 in Berlin
        let at = try TimeArgument(parsing: "07:30").resolve(now: now, in: Self.berlin)
        #expect(at == Self.juneMorning)
        // Just after midnight in Berlin, but still the previous day in UTC: today is Berlin's.
        let lateNight = Date(timeIntervalSince1970: 1_748_730_600)  // 2025-05-31T22:30:00Z, 00:30 on 1 June in Berlin
        #expect(try TimeArgument(parsing: "07:30").resolve(now: lateNight, in: Self.berlin) == Self.juneMorning)
    }

    @Test("A local date and time is read in the local zone, across daylight-saving time")
    func localTime() throws {
        let summer = try TimeArgument(parsing: "2025-06-01T07:30").resolve(now: Date(), in: Self.berlin)
        #expect(summer == Self.juneMorning)
        let winter = try TimeArgument(parsing: "2025-01-15T07:30").resolve(now: Date(), in: Self.berlin)
        #expect(winter == Date(timeIntervalSince1970: 1_736_922_600))  // 06:30Z: CET is +01:00
        let utc = try TimeArgument(parsing: "2025-06-01T07:30").resolve(now: Date(), in: TimeZone(identifier: "UTC")!)
        #expect(utc == Date(timeIntervalSince1970: 1_748_763_000))
    }

    @Test("A local time that the spring change skips resolves to the instant after the change")
    func skippedLocalTime() throws {
        // Berlin went from 02:00 CET to 03:00 CEST on 2025-03-30; 02:30 never happened.
        let at = try TimeArgument(parsing: "2025-03-30T02:30").resolve(now: Date(), in: Self.berlin)
        #expect(at == Date(timeIntervalSince1970: 1_743_298_200))  // 01:30Z = 03:30 CEST
    }

    @Test("An instant with an offset ignores the local zone")
    func instant() throws {
        let argument = try TimeArgument(parsing: "2025-06-01T07:30:00+02:00")
        #expect(argument.resolve(now: Date(), in: TimeZone(identifier: "America/New_York")!) == Self.juneMorning)
    }
}
