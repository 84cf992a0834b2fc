// "Today" and what hangs on it, and the reads the change feed does not replace.
//
// The midnight timer sleeps until the member's next midnight in their profile zone (the first
// instant of the next local day, `LocalDay.startInstant`, which knows daylight-saving days), at
// most an hour at a time, so a changed clock or zone is noticed within the hour. At midnight
// `today` moves on, the day's meals and steps start empty, and the new day's (and, on a Monday,
// the new week's) figures are read from the server. The timer is one task, cancelled by
// `close()`, sign-out and expiry.
//
// The week's summary is read again after each change of a workout, meal or steps day (one read
// at a time; changes arriving meanwhile cause one more), and the recent workouts are read again
// when a deletion leaves the list short while older workouts exist.

import Foundation
import WorkoutClient
import WorkoutOffline
import WorkoutRules

extension WorkoutSession {
    /// The longest the midnight timer sleeps before looking at the clock again.
    static let longestDayClockSleep: Duration = .seconds(3_600)

    /// (Re)starts the midnight timer.
    func startDayClock() {
        dayTask?.cancel()
        guard !isClosed else { return }
        dayTask = Task { [weak self] in
            while !Task.isCancelled {
                guard let delay = self?.untilNextDay() else { return }
                try? await Task.sleep(for: min(delay, Self.longestDayClockSleep))
                guard !Task.isCancelled else { return }
                self?.rollOverIfNeeded(force: false)
            }
        }
    }

    /// The time until the member's next midnight (just past it), or `nil` without a profile.
    private func untilNextDay() -> Duration? {
        guard let profile = content.profile else { return nil }
        let zone = profile.zone
        let current = now()
        let nextMidnight = LocalDate(current, in: zone).rulesDay.adding(days: 1).startInstant(in: zone)
        let milliseconds = max(0, nextMidnight - current.wireMilliseconds) + 20
        return .milliseconds(milliseconds)
    }

    /// Moves ``today`` on when the member's day changed (or, with `force`, when the zone did), and
    /// reads the new day's meals, steps and week.
    func rollOverIfNeeded(force: Bool) {
        guard status == .signedIn, let profile = content.profile else { return }
        let day = LocalDate(now(), in: profile.zone)
        guard force || day != content.today else { return }
        if day != content.today {
            content.today = day
            content.todaysMeals = []
            content.todaysSteps = 0
            content.todaysStepSources = []
            if let week = content.week, !(week.start <= day && day <= week.end) { content.week = nil }
            publish()
            scheduleSave()
        }
        refreshDay()
    }

    /// Reads today's meals and steps and the week again.
    private func refreshDay() {
        guard let profile = content.profile, let day = content.today else { return }
        let started = epoch
        Task { [weak self, client] in
            async let meals = client.mealsOfDay(day, timeZone: profile.timeZone)
            async let days = client.summaries(from: day, to: day)
            do {
                let read = (meals: try await meals.meals, steps: try await days.first?.steps ?? 0)
                guard let self, epoch == started, content.today == day else { return }
                content.todaysMeals = []
                read.meals.forEach { content.upsert($0) }
                if content.todaysStepSources.isEmpty { content.todaysSteps = read.steps }
                publish()
                scheduleSave()
            } catch {
                self?.noteBackground(error, epoch: started)
            }
        }
        refreshWeek()
    }

    /// Reads the week's summary again (coalesced: one read at a time, one more if asked meanwhile).
    func refreshWeek() {
        weekRequested = true
        guard weekTask == nil, !isClosed else { return }
        let started = epoch
        weekTask = Task { [weak self, client] in
            while let session = self, session.weekRequested, session.epoch == started, !Task.isCancelled {
                session.weekRequested = false
                guard let day = session.content.today else { break }
                session.weekReadsStarted += 1
                let number = session.weekReadsStarted
                do {
                    let week = try await client.summaries(from: day, to: day, granularity: .week).first
                    guard let session = self, session.epoch == started, session.content.today == day else { break }
                    guard number > session.weekReadApplied else { continue }
                    session.weekReadApplied = number
                    session.content.week = week
                    session.publish()
                    session.scheduleSave()
                } catch {
                    self?.noteBackground(error, epoch: started)
                    break
                }
            }
            self?.weekTask = nil
        }
    }

    /// Reads the week's summary now, and waits for it (a sync's answers are shown with it).
    /// A failure is ignored: the week read after each change follows anyway.
    func readWeekNow() async {
        guard let day = content.today else { return }
        let started = epoch
        weekReadsStarted += 1
        let number = weekReadsStarted
        guard let weeks = try? await client.summaries(from: day, to: day, granularity: .week),
              epoch == started, content.today == day, number > weekReadApplied else { return }
        weekReadApplied = number
        content.week = weeks.first
    }

    /// Reads the newest workouts again (after a deletion left the list short).
    func refillWorkouts() {
        guard refillTask == nil, !isClosed else { return }
        let started = epoch
        refillTask = Task { [weak self, client] in
            defer { self?.refillTask = nil }
            do {
                let page = try await client.workoutHistory(pageSize: Self.recentWorkoutLimit)
                guard let self, epoch == started else { return }
                // Records the feed brought meanwhile keep their newer revisions.
                let known = Dictionary(content.recentWorkouts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                content.recentWorkouts = page.items.map { fetched in
                    guard let mine = known[fetched.id], mine.revision > fetched.revision else { return fetched }
                    return mine
                }
                content.hasOlderWorkouts = page.hasMore
                publish()
                scheduleSave()
            } catch {
                self?.noteBackground(error, epoch: started)
            }
        }
    }

    /// Shows the failure of a background read, unless the model moved on (closed, signed out) or
    /// the read was cancelled meanwhile.
    private func noteBackground(_ error: any Error, epoch started: Int) {
        guard epoch == started, !isClosed, !Task.isCancelled else { return }
        note(error as? WorkoutError ?? WorkoutError(code: .unknown, message: "\(error)"))
    }

    /// Reads the achievements (a snapshot saved before they were ever read).
    func refreshAchievements() {
        let started = epoch
        Task { [weak self, client] in
            guard let achievements = try? await client.achievements(), let self, epoch == started else { return }
            achievements.forEach { content.upsert($0) }
            publish()
            scheduleSave()
        }
    }
}
