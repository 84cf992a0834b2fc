import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// The questions an app asks all day. Every one is a range scan of one member's keys:
/// O(log n + k), whatever the size of the tables. Page tokens are resume keys sealed for
/// their query (``PageTokens``): a forged or altered one, or one reused with other parameters,
/// is refused; and none could leave the caller's key range, because the range bounds the scan.
extension HouseholdStore {
    /// Workouts newest first, paged, optionally within `[from_ms, to_ms)`.
    package func workoutHistory(
        _ caller: Caller, _ request: Workout_V1_WorkoutHistoryRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> Workout_V1_WorkoutHistoryResponse {
        try Workout_V1_WorkoutHistoryResponse(serializedBytes: workoutHistoryEncoded(caller, request, maxResponseBytes: maxResponseBytes))
    }

    /// ``workoutHistory(_:_:maxResponseBytes:)`` as the encoded `WorkoutHistoryResponse`, the
    /// stored workouts' bytes copied into its repeated `workouts` field without decoding them.
    /// A page ends at `page_size` workouts or where the next would not fit `maxResponseBytes`
    /// (the client's max frame size), whichever comes first.
    package func workoutHistoryEncoded(
        _ caller: Caller, _ request: Workout_V1_WorkoutHistoryRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> [UInt8] {
        let now = clock.nowMilliseconds()
        let size = try Bounds.pageSize(request.pageSize, field: "page_size", maximum: UInt32(PageLimits.workoutHistory), defaultSize: 20)
        let bounds = try Bounds.timeRange(from: request.fromMs, to: request.toMs, fromField: "from_ms", toField: "to_ms", now: now)
        try Bounds.byteCount(request.pageToken, field: "page_token", range: 0...256)
        let parameters = [request.fromMs, request.toMs]
        let after = try pageTokens.open(request.pageToken, query: .workoutHistory, member: caller.userID, parameters: parameters)
        return try store.read { txn in
            try checkSession(caller, in: txn, now: now)
            var encoded: [UInt8] = []
            encoded.reserveCapacity(size * 128)
            var budget = ResponseBudget(maxBytes: maxResponseBytes, used: ResponseBudget.pageTokenReserve)
            let resume = try txn.scanRecordBytesPage(
                tables.workoutsByTime, in: tables.workouts,
                ScanRequest(
                    range: UserTimeKey.range(user: caller.userID, from: bounds.from ?? .min, to: bounds.to ?? .max),
                    direction: .backward, limit: size, after: after)
            ) { _, stored in
                guard budget.admit(encodedBytes: stored.count) else { return .stop }
                RawProtobuf.appendLengthDelimited(field: workoutsField, stored, to: &encoded)
                return .take
            }
            if let resume {
                let token = pageTokens.seal(resume, query: .workoutHistory, member: caller.userID, parameters: parameters)
                token.withUnsafeBytes { RawProtobuf.appendLengthDelimited(field: nextPageTokenField, $0, to: &encoded) }
            }
            return encoded
        }
    }

    /// The meals of one local day (midnight to midnight in the given zone, or the member's),
    /// oldest first, a page at a time, with the whole day's totals on every page.
    ///
    /// - Parameters:
    ///   - caller: The member.
    ///   - request: The day, zone and page token.
    ///   - maxResponseBytes: The client's max frame size: the page ends where the next meal
    ///     would not fit.
    package func mealsOfDay(
        _ caller: Caller, _ request: Workout_V1_MealsOfDayRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> Workout_V1_MealsOfDayResponse {
        try Workout_V1_MealsOfDayResponse(serializedBytes: mealsOfDayEncoded(caller, request, maxResponseBytes: maxResponseBytes))
    }

    /// ``mealsOfDay(_:_:maxResponseBytes:)`` as the encoded `MealsOfDayResponse`, built without
    /// decoding the meals: each stored meal is its wire encoding, copied into the reply's
    /// repeated `meals` field; only its `totals` are read, for the day's sum. This is the hot
    /// path of an app's home screen.
    ///
    /// Every page reads the whole day (its totals are the day's), and carries the meals after
    /// its token that fit `maxResponseBytes` with the reply's other fields; a page always holds
    /// at least one meal, and every stored meal fits the smallest frame a client may announce.
    ///
    /// - Throws: ``DomainError`` `invalidArgument` on `day`, `time_zone` or `page_token`
    ///   (a token of another member, day or zone).
    package func mealsOfDayEncoded(
        _ caller: Caller, _ request: Workout_V1_MealsOfDayRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> [UInt8] {
        let now = clock.nowMilliseconds()
        let day = try LocalDay(wire: request.day, field: "day")
        if !request.timeZone.isEmpty { _ = try TimeZoneCatalog.zone(named: request.timeZone, field: "time_zone") }
        try Bounds.byteCount(request.pageToken, field: "page_token", range: 0...256)
        return try store.read { txn in
            let memberZone = try authorizedTimeZone(caller, in: txn, now: now)
            let zone = try recordZone(request.timeZone, field: "time_zone", memberZone: memberZone)
            let window = day.interval(in: zone.zone)
            let parameters = [window.lowerBound, window.upperBound]
            let after = try pageTokens.open(request.pageToken, query: .mealsOfDay, member: caller.userID, parameters: parameters)
            var header = Workout_V1_MealsOfDayResponse()
            header.day = day.wire
            header.timeZone = zone.name
            header.dayStartMs = window.lowerBound
            header.dayEndMs = window.upperBound
            // Fields may come in any order on the wire and repeated ones accumulate, so the reply
            // is the header, then the totals and the token once the day is read, then the meals.
            var encoded: [UInt8] = try header.serializedBytes()
            var budget = ResponseBudget(
                maxBytes: maxResponseBytes, used: encoded.count + largestTotalsFieldBytes + ResponseBudget.pageTokenReserve)
            var meals: [UInt8] = []
            meals.reserveCapacity(4_096)
            var totals = Workout_V1_NutritionTotals()
            // The index key of the page's last meal so far (one buffer, reused).
            var lastOnPage: [UInt8] = []
            var resumeAfter: [UInt8]?
            try txn.scanRecordBytesPage(
                tables.mealsByTime, in: tables.meals,
                ScanRequest(range: UserTimeKey.range(user: caller.userID, from: window.lowerBound, to: window.upperBound))
            ) { indexKey, stored in
                if let bytes = RawProtobuf.lengthDelimitedField(mealTotalsField, in: stored) {
                    let mealTotals = try storedNutritionTotals(bytes)
                    totals.calories += mealTotals.calories
                    totals.proteinG += mealTotals.proteinG
                    totals.carbsG += mealTotals.carbsG
                    totals.fatG += mealTotals.fatG
                }
                // Meals before the token were on earlier pages; after a full page, only the totals count.
                let onEarlierPage = after.map { !$0.lexicographicallyPrecedes(indexKey) } ?? false
                if !onEarlierPage && resumeAfter == nil {
                    if budget.admit(encodedBytes: stored.count) {
                        RawProtobuf.appendLengthDelimited(field: mealsField, stored, to: &meals)
                        lastOnPage.removeAll(keepingCapacity: true)
                        lastOnPage.append(contentsOf: indexKey)
                    } else {
                        resumeAfter = lastOnPage
                    }
                }
                return .take
            }
            let totalsBytes: [UInt8] = try totals.serializedBytes()
            let token = resumeAfter.map {
                pageTokens.seal($0, query: .mealsOfDay, member: caller.userID, parameters: parameters)
            }
            // The header's buffer grows once, to the whole reply (a field's tag and length take
            // at most 10 bytes).
            encoded.reserveCapacity(encoded.count + 10 + totalsBytes.count + (token.map { 10 + $0.count } ?? 0) + meals.count)
            totalsBytes.withUnsafeBytes { RawProtobuf.appendLengthDelimited(field: mealsTotalsField, $0, to: &encoded) }
            token?.withUnsafeBytes { RawProtobuf.appendLengthDelimited(field: mealsNextPageTokenField, $0, to: &encoded) }
            encoded.append(contentsOf: meals)
            return encoded
        }
    }

    /// Weight entries oldest first, paged, optionally within `[from_ms, to_ms)`.
    package func weightProgress(
        _ caller: Caller, _ request: Workout_V1_WeightProgressRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> Workout_V1_WeightProgressResponse {
        try Workout_V1_WeightProgressResponse(serializedBytes: weightProgressEncoded(caller, request, maxResponseBytes: maxResponseBytes))
    }

    /// ``weightProgress(_:_:maxResponseBytes:)`` as the encoded `WeightProgressResponse`, the
    /// stored entries' bytes copied into its repeated `entries` field. A page ends at
    /// `page_size` entries or where the next would not fit `maxResponseBytes`, whichever
    /// comes first.
    package func weightProgressEncoded(
        _ caller: Caller, _ request: Workout_V1_WeightProgressRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> [UInt8] {
        let now = clock.nowMilliseconds()
        let size = try Bounds.pageSize(request.pageSize, field: "page_size", maximum: UInt32(PageLimits.weightProgress), defaultSize: 500)
        let bounds = try Bounds.timeRange(from: request.fromMs, to: request.toMs, fromField: "from_ms", toField: "to_ms", now: now)
        try Bounds.byteCount(request.pageToken, field: "page_token", range: 0...256)
        let parameters = [request.fromMs, request.toMs]
        let after = try pageTokens.open(request.pageToken, query: .weightProgress, member: caller.userID, parameters: parameters)
        return try store.read { txn in
            try checkSession(caller, in: txn, now: now)
            var encoded: [UInt8] = []
            encoded.reserveCapacity(min(size, 64) * 64)
            var budget = ResponseBudget(maxBytes: maxResponseBytes, used: ResponseBudget.pageTokenReserve)
            let resume = try txn.scanRecordBytesPage(
                tables.weightsByTime, in: tables.weights,
                ScanRequest(
                    range: UserTimeKey.range(user: caller.userID, from: bounds.from ?? .min, to: bounds.to ?? .max),
                    limit: size, after: after)
            ) { _, stored in
                guard budget.admit(encodedBytes: stored.count) else { return .stop }
                RawProtobuf.appendLengthDelimited(field: entriesField, stored, to: &encoded)
                return .take
            }
            if let resume {
                let token = pageTokens.seal(resume, query: .weightProgress, member: caller.userID, parameters: parameters)
                token.withUnsafeBytes { RawProtobuf.appendLengthDelimited(field: nextPageTokenField, $0, to: &encoded) }
            }
            return encoded
        }
    }

    /// Calories eaten and burned, workouts, active time and steps per day or ISO week.
    package func summaries(_ caller: Caller, _ request: Workout_V1_SummariesRequest) throws -> Workout_V1_SummariesResponse {
        let now = clock.nowMilliseconds()
        let from = try LocalDay(wire: request.fromDay, field: "from_day")
        let to = try LocalDay(wire: request.toDay, field: "to_day")
        let granularity: SummaryGranularity
        switch request.granularity {
        case .day, .unspecified: granularity = .day
        case .week: granularity = .week
        case .UNRECOGNIZED: throw DomainError.invalid("granularity", "granularity must be DAY or WEEK")
        }
        var accumulator = try SummaryAccumulator(from: from, to: to, granularity: granularity)
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            let today = LocalDay.containing(instant: now, in: zone(of: user))
            let history = try goalHistory(of: caller.userID, covering: accumulator.scanDays, in: txn)
            for (day, figures) in try dayFigures(of: user, days: accumulator.scanDays, in: txn) {
                _ = accumulator.add(figures, on: day)
            }
            var response = Workout_V1_SummariesResponse()
            response.periods = accumulator.periods().map { period in
                var wire = Workout_V1_PeriodSummary()
                wire.start = period.start.wire
                wire.end = period.end.wire
                wire.caloriesEaten = period.figures.caloriesEaten
                wire.caloriesBurned = period.figures.caloriesBurned
                wire.workouts = period.figures.workouts
                wire.activeSeconds = period.figures.activeSeconds
                wire.steps = period.figures.steps
                wire.proteinG = period.figures.proteinGrams
                wire.carbsG = period.figures.carbsGrams
                wire.fatG = period.figures.fatGrams
                wire.meals = period.figures.meals
                // The period's rings: a day's daily goals, a week's weekly goals.
                if period.start == period.end {
                    wire.goals = GoalProgressRules.day(period.start, figures: period.figures, goals: history.goals(on: period.start)).goals.map(\.wire)
                } else {
                    let goals = history.goals(on: min(period.end, max(period.start, today)))
                    wire.goals = GoalKind.weekly.compactMap { kind in
                        goals.weeklyTarget(kind).map { GoalStanding(kind: kind, target: $0, actual: GoalProgressRules.dailyFigure(kind, period.figures)).wire }
                    }
                }
                return wire
            }
            return response
        }
    }

    /// What each day of `days` recorded, from the per-day figures and the steps reports (the
    /// member's most trusted source, else the largest: ``StepsRule``); days without records are
    /// absent. Two range scans.
    ///
    /// - Parameter member: The member's stored record, for their id and steps-source priority.
    func dayFigures(
        of member: Workout_Store_V1_StoredUser, days: ClosedRange<LocalDay>, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> [LocalDay: DayFigures] {
        let user = UUID(bytes: member.userID)
        let first = days.lowerBound.epochDay
        let last = days.upperBound.epochDay
        var result: [LocalDay: DayFigures] = [:]
        for (key, figures) in try txn.scan(tables.days, ScanRequest(range: UserDayKey.range(user: user, first: first, last: last))).elements {
            result[LocalDay(epochDay: key.epochDay)] = DayFigures(
                caloriesEaten: figures.caloriesEaten, caloriesBurned: figures.caloriesBurned, workouts: figures.workouts,
                activeSeconds: UInt32(clamping: figures.activeSeconds), proteinGrams: figures.proteinG,
                carbsGrams: figures.carbsG, fatGrams: figures.fatG, meals: figures.meals)
        }
        // Steps: one source's figure per day, as StepsRule chooses it.
        let lower = UserDayKey(user: user, epochDay: first).orderedKey
        let upper = UserDayKey(user: user, epochDay: last + 1).orderedKey
        var perDay: [Int32: [(source: String, steps: UInt32)]] = [:]
        for (key, report) in try txn.scan(tables.steps, ScanRequest(range: .halfOpen(lower, upper))).elements {
            perDay[key.epochDay, default: []].append((key.source, report.steps))
        }
        for (epochDay, reports) in perDay {
            result[LocalDay(epochDay: epochDay), default: .zero].steps = StepsRule.dayFigure(reports, priority: member.stepsSourcePriority).steps
        }
        return result
    }

    /// Every known achievement, unlocked ones with their date, the rest with progress.
    package func achievements(_ caller: Caller) throws -> [Workout_V1_Achievement] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            let unlocked = Dictionary(
                uniqueKeysWithValues: try txn.scan(tables.achievements, ScanRequest(range: .prefix(caller.userID.orderedKey)))
                    .elements.map { ($0.key.name, $0.value) })
            var list = AchievementCatalog.all.map { definition -> Workout_V1_Achievement in
                var achievement = wireAchievement(definition, totals: user.totals)
                if let stored = unlocked[definition.id] {
                    achievement.unlocked = true
                    achievement.unlockedAtMs = stored.unlockedAtMs
                }
                return achievement
            }
            // Achievements a newer build unlocked and this one does not know stay visible.
            list += unlocked.values.filter { stored in !list.contains { $0.achievementID == stored.achievementID } }
            return list
        }
    }
}

/// `WorkoutHistoryResponse.workouts` and `.next_page_token` (queries.proto).
private let workoutsField = 1
private let nextPageTokenField = 2
/// `WeightProgressResponse.entries` and `.next_page_token` (queries.proto), numbered as
/// `WorkoutHistoryResponse`'s.
private let entriesField = 1
/// `MealsOfDayResponse.meals`, `.totals` and `.next_page_token` (queries.proto).
private let mealsField = 5
private let mealsTotalsField = 6
private let mealsNextPageTokenField = 7
/// A stored meal's `NutritionTotals`, read from its four doubles without decoding the message
/// (no allocation: a day's query sums ten of them); bytes that are not such a message go
/// through the protobuf decoder, which says what is wrong.
private func storedNutritionTotals(_ bytes: UnsafeRawBufferPointer) throws -> Workout_V1_NutritionTotals {
    var calories = 0.0, protein = 0.0, carbs = 0.0, fat = 0.0
    let wellFormed = RawProtobuf.forEachField(in: bytes) { number, value in
        // Protobuf's rule for a singular field met twice: the last one wins.
        guard case .fixed64(let bits) = value else { return }
        switch number {
        case 1: calories = Double(bitPattern: bits)
        case 2: protein = Double(bitPattern: bits)
        case 3: carbs = Double(bitPattern: bits)
        case 4: fat = Double(bitPattern: bits)
        default: break
        }
    }
    guard wellFormed else { return try Workout_V1_NutritionTotals(serializedBytes: Array(bytes)) }
    var totals = Workout_V1_NutritionTotals()
    totals.calories = calories
    totals.proteinG = protein
    totals.carbsG = carbs
    totals.fatG = fat
    return totals
}

/// The most a `NutritionTotals` field takes: a tag, a length and four doubles of 9 bytes each.
private let largestTotalsFieldBytes = 2 + 4 * 9
/// `Meal.totals` (records.proto).
private let mealTotalsField = 8
