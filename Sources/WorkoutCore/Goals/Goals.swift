import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Members' goals: their history (one entry per change, keyed by the day it took effect), the
/// household's rules for children, and progress towards them. Every read is a range scan of
/// the member's keys: the newest entry at or before a day is one reverse scan of length one.
extension HouseholdStore {
    /// The most history entries GetGoals lists (all are kept).
    static let listedGoalHistory = 100

    /// The goals in effect today, with their history, of the caller or (for an admin) a child.
    package func getGoals(_ caller: Caller, _ request: Workout_V1_GetGoalsRequest) throws -> Workout_V1_GetGoalsResponse {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let (_, member) = try goalsMember(caller, request.memberID, in: txn, now: now)
            let memberID = UUID(bytes: member.userID)
            let today = LocalDay.containing(instant: now, in: zone(of: member))
            var response = Workout_V1_GetGoalsResponse()
            let history = try txn.scan(tables.goals, ScanRequest(
                range: .prefix(memberID.orderedKey), direction: .backward, limit: Self.listedGoalHistory)).elements
            response.history = history.map(\.value)
            if let current = history.first(where: { $0.key.epochDay <= today.epochDay }) {
                response.goals = current.value.goals
                response.effectiveFrom = current.value.effectiveFrom
            }
            response.child = member.isChild
            if response.child { response.lowestEnergyKcal = lowestEnergy(of: member) }
            return response
        }
    }

    /// Sets and clears goals from a day on, in one new history entry (or in the newest one,
    /// when the change takes effect on its day).
    ///
    /// - Throws: ``DomainError`` `invalidArgument` naming the field out of bounds or against the
    ///   rules, `permissionDenied` for another member's goals without being an admin and them a
    ///   child, or a child's target weight not set by an admin.
    package func setGoals(_ caller: Caller, _ request: Workout_V1_SetGoalsRequest) async throws -> Workout_V1_SetGoalsResponse {
        let set = try GoalSet(wire: request.set, field: "set")
        try GoalLimits.check(set, field: "set")
        guard request.clear.count <= GoalLimits.mostCleared else {
            throw DomainError.invalid("clear", "clear may name at most \(GoalLimits.mostCleared) goals (got \(request.clear.count))")
        }
        var clearing: [GoalKind] = []
        for (index, wire) in request.clear.enumerated() {
            guard let kind = GoalKind(wire: wire) else {
                let known = GoalKind.allCases.map { String($0.rawValue) }.joined(separator: ", ")
                throw DomainError.invalid("clear[\(index)]", "clear[\(index)] must be one of \(known) (got \(wire.rawValue))")
            }
            guard !set.has(kind) else {
                throw DomainError.invalid("clear[\(index)]", "clear[\(index)] names the \(kind.name) goal, which set also sets: a goal is set or cleared, not both")
            }
            clearing.append(kind)
        }
        let cleared = clearing
        let requestedDay = request.hasEffectiveFrom ? try LocalDay(wire: request.effectiveFrom, field: "effective_from") : nil
        let now = clock.nowMilliseconds()
        let target = request.memberID.isEmpty ? caller.userID : try Bounds.recordID(request.memberID, field: "member_id")
        return try await write(notifying: target) { [self] txn in
            let (writer, found) = try goalsMember(caller, request.memberID, in: txn, now: now)
            var member = found
            let memberID = UUID(bytes: member.userID)
            let zone = zone(of: member)
            let today = LocalDay.containing(instant: now, in: zone)
            let from = requestedDay ?? today
            guard from <= today else {
                throw DomainError.invalid("effective_from", "effective_from must not be after today, \(today) in \(zone.identifier) (got \(from))")
            }
            let earliest = today.adding(days: -GoalLimits.furthestBackDays)
            guard from >= earliest else {
                throw DomainError.invalid("effective_from", "effective_from must be at most \(GoalLimits.furthestBackDays) days back, \(earliest) or later (got \(from))")
            }
            let newest = try txn.scan(tables.goals, ScanRequest(range: .prefix(memberID.orderedKey), direction: .backward, limit: 1)).elements.first
            if let newest, from.epochDay < newest.key.epochDay {
                let newestDay = LocalDay(epochDay: newest.key.epochDay)
                throw DomainError.invalid("effective_from",
                                          "effective_from must not be before \(newestDay), the day the newest goals took effect (got \(from)): a day already judged by later goals keeps them")
            }
            let base = try newest.map { try GoalSet(wire: $0.value.goals, field: "goals") } ?? .none
            var result = base.updating(with: set)
            for kind in cleared { result.clear(kind) }
            try GoalLimits.checkWhole(result, effectiveFrom: from, field: "set", settingTargetWeight: set.targetWeightKg != nil)
            if member.isChild {
                try ChildRules.check(set, field: "set", lowestEnergyKcal: lowestEnergy(of: member), byAdmin: isAdmin(writer))
            }
            var response = Workout_V1_SetGoalsResponse()
            // Nothing to change (or, without goals yet, nothing to set): no new entry.
            if result == base {
                if let newest { response.entry = newest.value }
                response.unchanged = true
                return response
            }
            response.entry = try storeGoals(result, for: memberID, from: from, by: UUID(bytes: writer.userID), now: now, in: &txn)
            // A steps goal set, changed or cleared from a past day judges those days anew.
            if result.dailySteps != base.dailySteps {
                let totals = member.totals
                response.unlocked = try settleStepsGoalRuns(changed: from...today, user: &member, now: now, in: &txn)
                if member.totals != totals { try saveUser(&member, profileChanged: false, now: now, in: &txn) }
            }
            return response
        }
    }

    /// Stores `goals` as `member`'s entry from `day` on, written by `writer`.
    func storeGoals(
        _ goals: GoalSet, for member: UUID, from day: LocalDay, by writer: UUID, now: Int64, in txn: inout WriteTransaction
    ) throws -> Workout_V1_GoalsEntry {
        var entry = Workout_V1_GoalsEntry()
        entry.effectiveFrom = day.wire
        entry.goals = goals.wire
        entry.setAtMs = now
        entry.setBy = writer.data
        try txn.put(entry, forKey: UserDayKey(user: member, epochDay: day.epochDay), in: tables.goals)
        return entry
    }

    /// A day's progress, its ISO week's, and the weight trend up to the day.
    package func progress(_ caller: Caller, _ request: Workout_V1_ProgressRequest) throws -> Workout_V1_ProgressResponse {
        try Workout_V1_ProgressResponse(serializedBytes: progressEncoded(caller, request))
    }

    /// ``progress(_:_:)`` as the encoded `ProgressResponse`. Each day's progress is encoded once
    /// and spliced into the week: swift-protobuf sizes a nested message again at every level it
    /// is nested in, and a week nests its days' goals four levels down.
    package func progressEncoded(_ caller: Caller, _ request: Workout_V1_ProgressRequest) throws -> [UInt8] {
        guard request.hasDay else { throw DomainError.invalid("day", "day is required") }
        let day = try LocalDay(wire: request.day, field: "day")
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            let today = LocalDay.containing(instant: now, in: zone(of: user))
            let week = day.isoWeekStart...day.isoWeekStart.adding(days: 6)
            let history = try goalHistory(of: caller.userID, covering: week, in: txn)
            let figures = try dayFigures(of: user, days: week, in: txn)
            let standing = GoalProgressRules.week(of: day, figures: { figures[$0] ?? .zero }, history: history, today: today)
            var weekHead = Workout_V1_WeekProgress()
            weekHead.start = standing.start.wire
            weekHead.end = standing.end.wire
            weekHead.goals = standing.goals.map(\.wire)
            weekHead.daysMet = standing.daysMet.map { count in
                var wire = Workout_V1_DaysMet()
                wire.kind = count.kind.wire
                wire.daysWithGoal = count.daysWithGoal
                wire.daysMet = count.daysMet
                return wire
            }
            // Fields may come in any order and repeated ones accumulate: the week's head, then its days.
            var weekBytes: [UInt8] = try weekHead.serializedBytes()
            for standingDay in standing.days {
                try RawProtobuf.appendMessage(field: weekDaysField, standingDay.wire, to: &weekBytes)
            }
            var encoded: [UInt8] = []
            encoded.reserveCapacity(weekBytes.count + 256)
            try RawProtobuf.appendMessage(
                field: progressDayField, GoalProgressRules.day(day, figures: figures[day] ?? .zero, goals: history.goals(on: day)).wire,
                to: &encoded)
            weekBytes.withUnsafeBytes { RawProtobuf.appendLengthDelimited(field: progressWeekField, $0, to: &encoded) }
            let weight = try weightTrend(of: caller.userID, on: day, goals: history.goals(on: day), in: txn)
            try RawProtobuf.appendMessage(field: progressWeightField, weight, to: &encoded)
            return encoded
        }
    }

    /// A member's activity this ISO week (Monday to today in their zone): active minutes, and
    /// the days their daily steps goal was met. For the household board.
    func weekActivity(
        of member: UUID, user: Workout_Store_V1_StoredUser, now: Int64, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> (minutes: UInt32, stepsGoalDays: UInt32) {
        let today = LocalDay.containing(instant: now, in: zone(of: user))
        let week = today.isoWeekStart...today
        let figures = try dayFigures(of: user, days: week, in: txn)
        let seconds = figures.values.reduce(UInt64(0)) { $0 + UInt64($1.activeSeconds) }
        let history = try goalHistory(of: member, covering: week, in: txn)
        var met: UInt32 = 0
        var day = week.lowerBound
        while day <= today {
            if StepsGoalRuns.meets(steps: figures[day]?.steps ?? 0, goals: history.goals(on: day)) { met += 1 }
            day = day.adding(days: 1)
        }
        return (UInt32(clamping: seconds / 60), met)
    }

    /// Today's progress (in the caller's zone) towards their daily goals: what a Watch event
    /// carries for a ring.
    package func todayProgress(_ caller: Caller) throws -> Workout_V1_DayProgress {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            let today = LocalDay.containing(instant: now, in: zone(of: user))
            let history = try goalHistory(of: caller.userID, covering: today...today, in: txn)
            let figures = try dayFigures(of: user, days: today...today, in: txn)
            return GoalProgressRules.day(today, figures: figures[today] ?? .zero, goals: history.goals(on: today)).wire
        }
    }

    /// The entries that decide the goals of `days`: the newest at or before the first day, and
    /// every one within.
    func goalHistory(
        of user: UUID, covering days: ClosedRange<LocalDay>, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> GoalHistory {
        let before = UserDayKey.range(user: user, first: LocalDay.earliestValid.epochDay - 1, last: days.lowerBound.epochDay)
        let within = UserDayKey.range(user: user, first: days.lowerBound.epochDay + 1, last: days.upperBound.epochDay)
        let entries = try txn.scan(tables.goals, ScanRequest(range: before, direction: .backward, limit: 1)).elements
            + txn.scan(tables.goals, ScanRequest(range: within)).elements
        return GoalHistory(try entries.map { (from: LocalDay(epochDay: $0.key.epochDay), goals: try GoalSet(wire: $0.value.goals, field: "goals")) })
    }

    /// The weight trend on `day` from the weigh-ins of the trend's window.
    private func weightTrend(
        of user: UUID, on day: LocalDay, goals: GoalSet, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> Workout_V1_WeightTrend {
        // Local days are those of each entry's own zone; a window a day wider on each side in
        // instants holds every entry whose local day is within it, whatever its zone.
        let first = day.adding(days: -WeightTrendRules.windowDays)
        let range = UserTimeKey.range(user: user, from: Int64(first.epochDay) * LocalDay.millisecondsPerDay,
                                      to: Int64(day.epochDay + 2) * LocalDay.millisecondsPerDay)
        var entries: [(day: LocalDay, kg: Double)] = []
        for (_, entry) in try txn.scanRecords(tables.weightsByTime, in: tables.weights, ScanRequest(range: range)).elements {
            entries.append((day: try LocalDay(wire: entry.localDay, field: "local_day"), kg: entry.weightKg))
        }
        var wire = Workout_V1_WeightTrend()
        if let target = goals.targetWeightKg {
            wire.targetKg = target
            if let by = goals.targetWeightBy { wire.targetBy = by.wire }
        }
        guard let trend = WeightTrendRules.trend(of: entries, on: day, targetKg: goals.targetWeightKg) else { return wire }
        wire.hasTrend_p = true
        wire.trendKg = trend.trendKg
        wire.changePerWeekKg = trend.changePerWeekKg
        wire.reached = trend.reached
        if let projected = trend.projected, projected <= LocalDay.latestValid { wire.projected = projected.wire }
        return wire
    }

    /// The caller, and the member whose goals the request is about: the caller, or (for an
    /// admin) a child of the household.
    private func goalsMember(
        _ caller: Caller, _ memberID: Data, in txn: borrowing some TransactionReading & ~Copyable, now: Int64
    ) throws -> (caller: Workout_Store_V1_StoredUser, member: Workout_Store_V1_StoredUser) {
        let user = try authorize(caller, in: txn, now: now)
        guard !memberID.isEmpty else { return (user, user) }
        let id = try Bounds.recordID(memberID, field: "member_id")
        if id == caller.userID { return (user, user) }
        guard isAdmin(user) else {
            throw DomainError.permissionDenied("only an admin may see or set another member's goals, and only a child's")
        }
        guard let member = try txn.get(id, from: tables.users.table) else {
            throw DomainError.notFound("no member of this household has the id in member_id")
        }
        guard member.isChild else {
            throw DomainError.permissionDenied(
                "the goals of an adult member are their own: an admin may see and set the goals of members under 18, or of members an admin marked a child")
        }
        return (user, member)
    }

    private func lowestEnergy(of member: Workout_Store_V1_StoredUser) -> Double {
        ChildRules.lowestEnergyKcal(age: member.age, weightKg: member.weightKg, heightCm: member.heightCm)
    }

}

/// `ProgressResponse.day`, `.week` and `.weight`.
private let progressDayField = 1
private let progressWeekField = 2
private let progressWeightField = 3
/// `WeekProgress.days`.
private let weekDaysField = 4
