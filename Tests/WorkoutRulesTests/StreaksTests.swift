import Foundation
import Testing
import TestSupport
import WorkoutRules

@Suite("Streaks")
struct StreaksTests {
    @Test("Summaries count distinct consecutive days, in any order", arguments: [
        ([String](), UInt32(0), UInt32(0), String?.none),
        (["2026-03-10"], 1, 1, "2026-03-10"),
        (["2026-03-10", "2026-03-10", "2026-03-10"], 1, 1, "2026-03-10"),
        (["2026-03-10", "2026-03-11", "2026-03-12"], 3, 3, "2026-03-12"),
        (["2026-03-12", "2026-03-10", "2026-03-11", "2026-03-11"], 3, 3, "2026-03-12"),
        (["2026-03-10", "2026-03-11", "2026-03-13"], 1, 2, "2026-03-13"),
        (["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-05", "2026-03-06"], 2, 3, "2026-03-06"),
        (["2025-12-31", "2026-01-01"], 2, 2, "2026-01-01"),
        (["2024-02-28", "2024-02-29", "2024-03-01"], 3, 3, "2024-03-01"),
    ])
    func summarize(days: [String], run: UInt32, longest: UInt32, lastDay: String?) {
        let summary = Streaks.summarize(days: days.map(LocalDay.init))
        #expect(summary == StreakSummary(run: run, longest: longest, lastDay: lastDay.map(LocalDay.init)))
    }

    @Test("Adding a day: the same day changes nothing, the next extends, a gap restarts at 1, an older one asks to recompute")
    func adding() {
        let start = StreakSummary(run: 4, longest: 6, lastDay: LocalDay("2026-03-10"))
        #expect(Streaks.adding(LocalDay("2026-03-10"), to: start) == start)
        #expect(Streaks.adding(LocalDay("2026-03-11"), to: start) == StreakSummary(run: 5, longest: 6, lastDay: LocalDay("2026-03-11")))
        #expect(Streaks.adding(LocalDay("2026-03-12"), to: start) == StreakSummary(run: 1, longest: 6, lastDay: LocalDay("2026-03-12")))
        #expect(Streaks.adding(LocalDay("2026-03-09"), to: start) == nil)
        #expect(Streaks.adding(LocalDay("2026-03-10"), to: .empty) == StreakSummary(run: 1, longest: 1, lastDay: LocalDay("2026-03-10")))
        let record = StreakSummary(run: 6, longest: 6, lastDay: LocalDay("2026-03-10"))
        #expect(Streaks.adding(LocalDay("2026-03-11"), to: record) == StreakSummary(run: 7, longest: 7, lastDay: LocalDay("2026-03-11")))
    }

    @Test("Adding days one by one agrees with summarizing them all", arguments: [UInt64(1), 2, 3, 4])
    func incrementalAgreesWithBatch(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var day = LocalDay("2026-01-01")
        var days: [LocalDay] = []
        var summary = StreakSummary.empty
        for _ in 0..<500 {
            day = day.adding(days: Int32(generator.next() % 3))                 // 0: same day, 1: next, 2: gap
            days.append(day)
            summary = Streaks.adding(day, to: summary)!
            #expect(summary == Streaks.summarize(days: days.shuffled(using: &generator)))
        }
    }

    @Test("The current streak is the run if it reaches today or yesterday, else 0", arguments: [
        ("2026-03-10", "2026-03-10", UInt32(5)),
        ("2026-03-10", "2026-03-11", 5),
        ("2026-03-10", "2026-03-12", 0),
        ("2026-03-10", "2026-04-10", 0),
        ("2026-03-11", "2026-03-10", 5),  // logged in a zone ahead of the profile zone
    ])
    func current(lastDay: String, today: String, expected: UInt32) {
        let summary = StreakSummary(run: 5, longest: 9, lastDay: LocalDay(lastDay))
        #expect(Streaks.current(summary, today: LocalDay(today)) == expected)
    }

    @Test("Without any workout the current streak is 0")
    func currentEmpty() {
        #expect(Streaks.current(.empty, today: LocalDay("2026-03-10")) == 0)
    }

    @Test("Workouts just before and just after midnight are on consecutive days")
    func acrossMidnight() {
        let berlin = zone("Europe/Berlin")
        let days = ["2026-03-10T23:59:00+01:00", "2026-03-11T00:01:00+01:00"].map {
            LocalDay.containing(instant: instant($0), in: berlin)
        }
        #expect(Streaks.summarize(days: days) == StreakSummary(run: 2, longest: 2, lastDay: LocalDay("2026-03-11")))
    }

    @Test("Several workouts on one day count once")
    func severalADay() {
        let tz = zone("America/New_York")
        let days = ["2026-03-10T06:00:00-04:00", "2026-03-10T12:00:00-04:00", "2026-03-10T23:59:59-04:00", "2026-03-11T07:00:00-04:00"]
            .map { LocalDay.containing(instant: instant($0), in: tz) }
        #expect(Streaks.summarize(days: days) == StreakSummary(run: 2, longest: 2, lastDay: LocalDay("2026-03-11")))
    }

    @Test("A day without a workout resets the run but not the longest")
    func afterAGap() {
        let days = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-05"].map(LocalDay.init)
        let summary = Streaks.summarize(days: days)
        #expect(summary == StreakSummary(run: 1, longest: 3, lastDay: LocalDay("2026-03-05")))
        #expect(Streaks.current(summary, today: LocalDay("2026-03-05")) == 1)
    }

    @Test("Each workout counts on its own zone's day: 23:30 in New York, then 06:00 next day in Berlin, are consecutive")
    func acrossATimeZoneChange() {
        let newYork = LocalDay.containing(instant: instant("2026-03-10T23:30:00-04:00"), in: zone("America/New_York"))
        let berlin = LocalDay.containing(instant: instant("2026-03-11T06:00:00+01:00"), in: zone("Europe/Berlin"))
        let berlinNext = LocalDay.containing(instant: instant("2026-03-12T19:00:00+01:00"), in: zone("Europe/Berlin"))
        #expect(newYork == LocalDay("2026-03-10"))
        #expect(berlin == LocalDay("2026-03-11"))
        // Both instants fall on 2026-03-11 in UTC: only the logging zones make them two days.
        #expect(LocalDay.containing(instant: instant("2026-03-10T23:30:00-04:00"), in: zone("UTC")) == berlin)
        #expect(Streaks.summarize(days: [newYork, berlin, berlinNext]) == StreakSummary(run: 3, longest: 3, lastDay: berlinNext))
    }

    @Test("Streaks run through DST days, whose first and last hours belong to them", arguments: [
        ("Europe/Berlin", ["2026-03-28T23:30:00+01:00", "2026-03-29T00:30:00+01:00", "2026-03-29T23:30:00+02:00", "2026-03-30T00:10:00+02:00"]),
        ("Europe/Berlin", ["2026-10-24T23:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00", "2026-10-26T00:00:00+01:00"]),
        ("America/New_York", ["2026-03-07T23:59:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-09T00:00:00-04:00"]),
        ("America/Santiago", ["2026-09-05T23:59:00-04:00", "2026-09-06T01:00:00-03:00", "2026-09-07T00:00:00-03:00"]),
    ])
    func onDSTDays(zoneName: String, instants: [String]) {
        let tz = zone(zoneName)
        let days = instants.map { LocalDay.containing(instant: instant($0), in: tz) }
        #expect(Streaks.summarize(days: days).run == 3)
    }
}
