package import Foundation

/// Which archives of a backup directory to keep: the newest archive of each of the last
/// `daily` days that have one, and the newest of each of the last `weekly` ISO weeks (Monday
/// to Sunday) that have one, in UTC; the newest archive is always kept. The rest may go.
///
/// Only the archives ``archiveName(at:)`` names (`workout-YYYYMMDDTHHMMSSZ.tar.gz`) take part:
/// other files (an archive taken before a migration, anything a person put there) are never
/// candidates. Pure: the dates come from the names, never from the clock, so a box that was off
/// for a month keeps its last backups rather than deleting everything as "old".
package struct BackupRetention: Sendable, Equatable {
    /// Days to keep the newest archive of (at least 1).
    package var daily: Int
    /// ISO weeks to keep the newest archive of (0: none beyond the daily ones).
    package var weekly: Int

    /// Makes a policy.
    package init(daily: Int, weekly: Int) {
        self.daily = daily
        self.weekly = weekly
    }

    /// An archive found in the backup directory.
    package struct Archive: Sendable, Hashable {
        /// Its file name.
        package var name: String
        /// When it was taken, from its name.
        package var date: Date

        /// Makes one.
        package init(name: String, date: Date) {
            self.name = name
            self.date = date
        }
    }

    /// What to keep and what to delete.
    package struct Decision: Sendable, Equatable {
        /// Archives to keep, newest first.
        package var keep: [Archive]
        /// Archives to delete, newest first.
        package var delete: [Archive]

        /// Makes one.
        package init(keep: [Archive], delete: [Archive]) {
            self.keep = keep
            self.delete = delete
        }
    }

    /// The file name of a scheduled archive taken at `date`: `workout-20261124T031500Z.tar.gz`.
    package static func archiveName(at date: Date) -> String {
        "workout-\(stampFormatter().string(from: date)).tar.gz"
    }

    /// The date in a scheduled archive's name, or `nil` for any other name.
    package static func date(inName name: String) -> Date? {
        guard name.hasPrefix("workout-"), name.hasSuffix(".tar.gz") else { return nil }
        let stamp = name.dropFirst("workout-".count).dropLast(".tar.gz".count)
        guard stamp.count == 16 else { return nil }
        return stampFormatter().date(from: String(stamp))
    }

    /// The scheduled archives among `names`, each with its date.
    package static func archives(among names: [String]) -> [Archive] {
        names.compactMap { name in date(inName: name).map { Archive(name: name, date: $0) } }
    }

    /// Decides which of `archives` to keep.
    package func decide(_ archives: [Archive]) -> Decision {
        let newestFirst = archives.sorted { ($0.date, $0.name) > ($1.date, $1.name) }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var kept = Set<String>()
        var days = Set<DateComponents>()
        var weeks = Set<DateComponents>()
        for archive in newestFirst {
            let day = calendar.dateComponents([.year, .month, .day], from: archive.date)
            let week = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: archive.date)
            if days.count < daily, days.insert(day).inserted { kept.insert(archive.name) }
            if weeks.count < weekly, weeks.insert(week).inserted { kept.insert(archive.name) }
        }
        if let newest = newestFirst.first { kept.insert(newest.name) }
        return Decision(
            keep: newestFirst.filter { kept.contains($0.name) },
            delete: newestFirst.filter { !kept.contains($0.name) })
    }

    private static func stampFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }
}
