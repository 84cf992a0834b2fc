public import Foundation
import WorkoutProtocol
import WorkoutRules

extension WorkoutClient {
    /// The member's workouts, newest first, one page at a time.
    ///
    /// - Parameters:
    ///   - from: Only workouts at or after this time.
    ///   - to: Only workouts before this time.
    ///   - pageSize: At most this many (1 through 100, else `INVALID_ARGUMENT` before anything is
    ///     sent; the server's default when `nil`); fewer when they would not fit the client's max
    ///     frame size.
    ///   - pageToken: Where the previous page ended.
    /// - Returns: A page and the token of the next one.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` for a bad range or token.
    public func workoutHistory(
        from: Date? = nil, to: Date? = nil, pageSize: Int? = nil, pageToken: PageToken? = nil
    ) async throws(WorkoutError) -> Page<Workout> {
        var request = Workout_V1_WorkoutHistoryRequest()
        request.fromMs = from?.wireMilliseconds ?? 0
        request.toMs = to?.wireMilliseconds ?? 0
        if let pageSize { request.pageSize = try WireCount.check(pageSize, field: "pageSize", wireField: "page_size", range: 1...PageLimits.workoutHistory) }
        if let pageToken { request.pageToken = pageToken.bytes }
        return Page(wire: try await call(MethodCatalog.workoutHistory, request, idempotent: true))
    }

    /// The most pages ``mealsOfDay(_:timeZone:)`` follows for one day: far above any real day
    /// (a page holds up to 64 KiB of meals), a bound on a server that never ends its pages.
    public static let maxMealPages = 10_000

    /// The member's meals of one local day, with the day's nutrition totals.
    ///
    /// The server pages a day whose meals would not fit one frame; this follows the pages
    /// (each a call of its own, retried like any read) and returns the whole day.
    ///
    /// - Parameters:
    ///   - day: The calendar day.
    ///   - timeZone: The zone whose day is meant (`nil`: the profile's).
    /// - Returns: The day's bounds, meals in time order, and totals.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` for an unknown zone; `INTERNAL` when the
    ///   server names a next page but sends no meal, names the page it just sent again, or
    ///   sends more than ``maxMealPages`` pages (it would never end).
    public func mealsOfDay(_ day: LocalDate, timeZone: String? = nil) async throws(WorkoutError) -> MealsOfDay {
        var request = Workout_V1_MealsOfDayRequest()
        request.day = day.wire
        request.timeZone = timeZone ?? ""
        var page = try await call(MethodCatalog.mealsOfDay, request, idempotent: true)
        var whole = page
        var pages = 1
        while !page.nextPageToken.isEmpty {
            guard !page.meals.isEmpty else {
                throw WorkoutError(code: .internal, message: "the server sent an empty page of meals with a next page token")
            }
            guard page.nextPageToken != request.pageToken, pages < Self.maxMealPages else {
                throw WorkoutError(code: .internal, message: "the server's pages of one day's meals do not end (\(pages) pages)")
            }
            pages += 1
            request.pageToken = page.nextPageToken
            page = try await call(MethodCatalog.mealsOfDay, request, idempotent: true)
            whole.meals += page.meals
            // The day's totals as of the latest page.
            whole.totals = page.totals
        }
        return MealsOfDay(wire: whole)
    }

    /// The member's weigh-ins in a time range, oldest first, one page at a time.
    ///
    /// - Parameters:
    ///   - from: Only entries at or after this time.
    ///   - to: Only entries before this time.
    ///   - pageSize: At most this many per page (1 through 1,000, else `INVALID_ARGUMENT` before
    ///     anything is sent; the server's default when `nil`); fewer when
    ///     they would not fit the client's max frame size.
    ///   - pageToken: Where the previous page ended.
    /// - Returns: A page and the token of the next one.
    /// - Throws: ``WorkoutError``.
    public func weightProgress(
        from: Date? = nil, to: Date? = nil, pageSize: Int? = nil, pageToken: PageToken? = nil
    ) async throws(WorkoutError) -> Page<WeightEntry> {
        var request = Workout_V1_WeightProgressRequest()
        request.fromMs = from?.wireMilliseconds ?? 0
        request.toMs = to?.wireMilliseconds ?? 0
        if let pageSize { request.pageSize = try WireCount.check(pageSize, field: "pageSize", wireField: "page_size", range: 1...PageLimits.weightProgress) }
        if let pageToken { request.pageToken = pageToken.bytes }
        return Page(wire: try await call(MethodCatalog.weightProgress, request, idempotent: true))
    }

    /// Per-day or per-week summaries (calories in and out, workouts, steps, macros).
    ///
    /// - Parameters:
    ///   - from: The first day.
    ///   - to: The last day (inclusive).
    ///   - granularity: Days or weeks.
    /// - Returns: One summary per period.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` for a reversed or too long range.
    public func summaries(from: LocalDate, to: LocalDate, granularity: Granularity = .day) async throws(WorkoutError) -> [PeriodSummary] {
        var request = Workout_V1_SummariesRequest()
        request.fromDay = from.wire
        request.toDay = to.wire
        request.granularity = granularity.wire
        return try await call(MethodCatalog.summaries, request, idempotent: true).periods.map(PeriodSummary.init(wire:))
    }

    /// Every achievement, unlocked or not, with progress.
    ///
    /// - Returns: The achievements.
    /// - Throws: ``WorkoutError``.
    public func achievements() async throws(WorkoutError) -> [Achievement] {
        try await call(MethodCatalog.achievements, Workout_V1_AchievementsRequest(), idempotent: true)
            .achievements.map(Achievement.init(wire:))
    }

    /// Everything of the member's that changed after `revision`, for a local copy.
    ///
    /// - Parameters:
    ///   - revision: The last revision the caller applied (0: everything).
    ///   - pageSize: At most this many changes (1 through 500, else `INVALID_ARGUMENT` before
    ///     anything is sent; the server's default when `nil`); fewer, with
    ///     more to come, when they would not fit the client's max frame size.
    /// - Returns: The changes in revision order, the revision reached, and whether more remain.
    /// - Throws: ``WorkoutError``: `OUT_OF_RANGE` when `revision` is ahead of the server
    ///   (drop the local copy and sync from 0).
    public func changes(since revision: UInt64, pageSize: Int? = nil) async throws(WorkoutError) -> ChangesPage {
        var request = Workout_V1_ChangesRequest()
        request.sinceRevision = revision
        if let pageSize { request.pageSize = try WireCount.check(pageSize, field: "pageSize", wireField: "page_size", range: 1...PageLimits.changes) }
        return ChangesPage(wire: try await call(MethodCatalog.changes, request, idempotent: true))
    }
}
