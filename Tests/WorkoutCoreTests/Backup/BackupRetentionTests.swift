import Foundation
import Testing
import WorkoutCore

/// Retention of scheduled archives, driven by the dates in their names, never by the clock.
@Suite("Backup retention: the newest archive of the last N days and M weeks")
struct BackupRetentionTests {
    /// `2026-11-24T03:15:00Z` and the like, as a date.
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    /// The scheduled archive names for these times.
    static func names(_ times: [String]) -> [String] {
        times.map { BackupRetention.archiveName(at: date($0)) }
    }

    @Test("Names carry the UTC time and read back to it; other names are not archives")
    func names() {
        let name = BackupRetention.archiveName(at: Self.date("2026-11-24T03:15:07Z"))
        #expect(name == "workout-20261124T031507Z.tar.gz")
        #expect(BackupRetention.date(inName: name) == Self.date("2026-11-24T03:15:07Z"))
        for other in ["workout-20261124T031507Z-before-schema-2.tar.gz", "notes.txt", "workout-2026.tar.gz",
                      ".workout-20261124T031507Z.tar.gz.partial-1", "workout-20261124T031507Z.tar"] {
            #expect(BackupRetention.date(inName: other) == nil, "\(other)")
        }
        #expect(BackupRetention.archives(among: [name, "notes.txt"]).map(\.name) == [name])
    }

    @Test("Nightly archives over 30 days: 7 daily and 4 weekly keep 7 days plus the newest of 4 ISO weeks")
    func nightly() {
        // 2026-10-26 (a Monday) to 2026-11-24 (a Tuesday), one archive each night at 03:15.
        let start = Self.date("2026-10-26T03:15:00Z")
        let archives = (0..<30).map { day in
            let date = start.addingTimeInterval(Double(day) * 86_400)
            return BackupRetention.Archive(name: BackupRetention.archiveName(at: date), date: date)
        }
        let decision = BackupRetention(daily: 7, weekly: 4).decide(archives.shuffled())
        let kept = decision.keep.map(\.name)
        #expect(kept == Self.names([
            // The last 7 days.
            "2026-11-24T03:15:00Z", "2026-11-23T03:15:00Z", "2026-11-22T03:15:00Z", "2026-11-21T03:15:00Z",
            "2026-11-20T03:15:00Z", "2026-11-19T03:15:00Z", "2026-11-18T03:15:00Z",
            // The newest of each of the 4 newest ISO weeks: W48 (Nov 23-), W47, W46, W45 (Sundays).
            "2026-11-15T03:15:00Z", "2026-11-08T03:15:00Z",
        ]))
        #expect(decision.delete.count == 30 - kept.count)
        #expect(Set(decision.keep).isDisjoint(with: decision.delete))
    }

    @Test("Several archives on one day: only that day's newest counts for it")
    func sameDay() {
        let times = ["2026-11-24T03:15:00Z", "2026-11-24T12:00:00Z", "2026-11-23T03:15:00Z", "2026-11-22T23:59:59Z", "2026-11-22T00:00:00Z"]
        let archives = BackupRetention.archives(among: Self.names(times))
        let decision = BackupRetention(daily: 2, weekly: 0).decide(archives)
        #expect(decision.keep.map(\.name) == Self.names(["2026-11-24T12:00:00Z", "2026-11-23T03:15:00Z"]))
        #expect(decision.delete.map(\.name) == Self.names(["2026-11-24T03:15:00Z", "2026-11-22T23:59:59Z", "2026-11-22T00:00:00Z"]))
    }

    @Test("A box that was off for months keeps its last archives: days count only when they have one")
    func gapsDoNotDeleteEverything() {
        let times = ["2026-11-24T03:15:00Z", "2026-08-01T03:15:00Z", "2026-07-31T03:15:00Z", "2026-07-30T03:15:00Z"]
        let decision = BackupRetention(daily: 3, weekly: 0).decide(BackupRetention.archives(among: Self.names(times)))
        #expect(decision.keep.map(\.name) == Self.names(["2026-11-24T03:15:00Z", "2026-08-01T03:15:00Z", "2026-07-31T03:15:00Z"]))
        #expect(decision.delete.map(\.name) == Self.names(["2026-07-30T03:15:00Z"]))
    }

    @Test("Weeks run Monday to Sunday in UTC, across a year's end (ISO week 2026-W53 and 2027-W01)")
    func isoWeeks() {
        // 2027-01-03 is a Sunday in 2026-W53; 2027-01-04 a Monday in 2027-W01.
        let times = ["2027-01-04T01:00:00Z", "2027-01-03T23:00:00Z", "2026-12-28T01:00:00Z", "2026-12-27T01:00:00Z"]
        let decision = BackupRetention(daily: 1, weekly: 3).decide(BackupRetention.archives(among: Self.names(times)))
        #expect(decision.keep.map(\.name) == Self.names(["2027-01-04T01:00:00Z", "2027-01-03T23:00:00Z", "2026-12-27T01:00:00Z"]))
        #expect(decision.delete.map(\.name) == Self.names(["2026-12-28T01:00:00Z"]))
    }

    @Test("The newest archive is always kept, and nothing is an empty directory's decision")
    func edges() {
        #expect(BackupRetention(daily: 1, weekly: 0).decide([]) == .init(keep: [], delete: []))
        let one = BackupRetention.archives(among: Self.names(["2026-11-24T03:15:00Z"]))
        #expect(BackupRetention(daily: 1, weekly: 0).decide(one).keep == one)
    }
}
