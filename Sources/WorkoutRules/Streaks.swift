// Streaks: runs of consecutive local days with at least one workout.
//
// A streak is a run of consecutive local calendar days each holding at least one
// workout; several workouts on one day count once, and a day without one breaks the
// run. Each workout's day is its own local day (the day of its instant in the zone it
// was logged in), so a member who travels keeps the days their wall clock showed. The
// summary keeps the run ending at the latest workout day and the longest run ever; it
// can be built from all days at once, or kept up to date one workout at a time as long
// as days arrive in order (an older day, from a back-dated log, an edit or a delete,
// means recomputing from all days). The current streak shown to the member is the run
// if it reaches today or yesterday in their profile zone.

/// What the streak rules remember about a member's workout days.
package struct StreakSummary: Equatable, Sendable {
    /// The length, in days, of the run of consecutive workout days ending at `lastDay`;
    /// 0 when there is no workout day.
    package var run: UInt32
    /// The length of the longest run of consecutive workout days ever.
    package var longest: UInt32
    /// The latest day with a workout, or `nil` when there is none.
    package var lastDay: LocalDay?

    /// The summary of a member with no workouts.
    package static let empty = StreakSummary(run: 0, longest: 0, lastDay: nil)

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - run: The run ending at `lastDay`.
    ///   - longest: The longest run ever.
    ///   - lastDay: The latest workout day.
    package init(run: UInt32, longest: UInt32, lastDay: LocalDay?) {
        self.run = run
        self.longest = longest
        self.lastDay = lastDay
    }
}

/// The streak rules: consecutive local days with at least one workout.
package enum Streaks {
    /// Summarizes a member's workout days.
    ///
    /// - Parameter days: The local day of every workout, in any order, duplicates
    ///   allowed (several workouts on one day count once).
    /// - Returns: The run ending at the latest day, the longest run, and the latest day.
    package static func summarize(days: some Collection<LocalDay>) -> StreakSummary {
        let epochDays = Set(days.lazy.map(\.epochDay)).sorted()
        guard let last = epochDays.last else { return .empty }
        var run: UInt32 = 0
        var longest: UInt32 = 0
        var previous: Int32?
        for day in epochDays {
            if let previous, day == previous + 1 { run += 1 } else { run = 1 }
            longest = max(longest, run)
            previous = day
        }
        return StreakSummary(run: run, longest: longest, lastDay: LocalDay(epochDay: last))
    }

    /// Updates a summary with one more workout day, when that day is not older than the
    /// latest one: the same day changes nothing, the next day extends the run, a later
    /// day restarts it at 1.
    ///
    /// - Parameters:
    ///   - day: The new workout's local day.
    ///   - summary: The summary before it.
    /// - Returns: The new summary, or `nil` when `day` is before `summary.lastDay`: the
    ///   caller must then recompute with `summarize(days:)` over all days.
    package static func adding(_ day: LocalDay, to summary: StreakSummary) -> StreakSummary? {
        guard let lastDay = summary.lastDay else {
            return StreakSummary(run: 1, longest: max(summary.longest, 1), lastDay: day)
        }
        if day < lastDay { return nil }
        if day == lastDay { return summary }
        let run = day == lastDay.adding(days: 1) ? summary.run + 1 : 1
        return StreakSummary(run: run, longest: max(summary.longest, run), lastDay: day)
    }

    /// The streak to show today: the run if it reaches today or yesterday, else 0.
    ///
    /// A last day after `today` also counts (a workout logged in a zone ahead of the
    /// profile zone can fall on the profile zone's tomorrow): the run is still going.
    ///
    /// - Parameters:
    ///   - summary: The member's streak summary.
    ///   - today: Today in the member's profile zone.
    /// - Returns: The current streak length in days.
    package static func current(_ summary: StreakSummary, today: LocalDay) -> UInt32 {
        guard let lastDay = summary.lastDay, lastDay >= today.adding(days: -1) else { return 0 }
        return summary.run
    }
}
