public import Foundation
public import Observation

/// The single source of truth an app's views read: who is signed in, their profile and
/// totals, today's meals and steps, recent workouts, the weight series, achievements.
///
/// It is filled by ``load()`` after signing in, updated as soon as one of its own calls
/// answers, and kept current by a Watch stream, so a change made on another device shows
/// up without a refresh. When the connection drops, ``isLive`` turns false; the stream
/// reconnects and resumes from the last revision it applied, and ``isLive`` turns true
/// again once it has caught up. A session the server no longer accepts turns
/// ``status`` to ``Status/expired``.
///
/// Observable with the Observation framework (SwiftUI reads it directly); every property
/// changes on the main actor.
@MainActor
@Observable
public final class WorkoutSession {
    /// Whether a member is signed in.
    public enum Status: Sendable, Hashable {
        /// No session: call ``login(email:password:)`` or ``resume()``.
        case signedOut
        /// Signed in; the properties describe the member.
        case signedIn
        /// The server ended the session (expired, revoked, password changed elsewhere):
        /// sign in again.
        case expired
    }

    /// How many of the newest workouts ``recentWorkouts`` keeps.
    public static let recentWorkoutLimit = 20
    /// How far back ``weights`` reaches.
    public static let weightWindowDays = 365

    /// The client the session talks through.
    public let client: WorkoutClient

    /// Whether a member is signed in.
    public private(set) var status = Status.signedOut
    /// The member's profile.
    public private(set) var profile: Profile?
    /// Their totals: workouts, calories, points, level, streaks.
    public private(set) var totals: Totals?
    /// The last revision of theirs this model reflects.
    public private(set) var revision: UInt64 = 0
    /// Today, in the profile's time zone.
    public private(set) var today: LocalDate?
    /// Today's meals, in time order.
    public private(set) var todaysMeals: [Meal] = []
    /// Today's step count (the highest of the day's sources).
    public private(set) var todaysSteps = 0
    /// The newest workouts, newest first (at most ``recentWorkoutLimit``).
    public private(set) var recentWorkouts: [Workout] = []
    /// Weigh-ins of the last ``weightWindowDays`` days, oldest first.
    public private(set) var weights: [WeightEntry] = []
    /// Every achievement, with progress.
    public private(set) var achievements: [Achievement] = []
    /// Whether the live stream is connected and caught up.
    public private(set) var isLive = false
    /// The last failure of the live stream or a reload, for a banner; `nil` after success.
    public private(set) var lastError: WorkoutError?

    /// What today's meals add up to.
    public var todaysNutrition: NutritionTotals {
        todaysMeals.reduce(into: NutritionTotals()) { sum, meal in
            sum.calories += meal.totals.calories
            sum.proteinG += meal.totals.proteinG
            sum.carbsG += meal.totals.carbsG
            sum.fatG += meal.totals.fatG
        }
    }

    /// Moves on every sign-out or expiry, so a `load()` that was waiting meanwhile drops
    /// what it read instead of showing the previous member's data.
    @ObservationIgnored private var epoch = 0
    @ObservationIgnored private var watchTask: Task<Void, Never>?
    /// Counts started streams, so that events of a stopped one are never applied.
    @ObservationIgnored private var watchGeneration = 0

    /// Makes a session model over `client` (signed out until ``login(email:password:)``,
    /// or ``resume()`` when the client was given a stored token).
    public init(client: WorkoutClient) {
        self.client = client
    }

    isolated deinit {
        watchTask?.cancel()
    }

    // MARK: - Signing in and out

    /// Signs in, loads everything and starts the live stream.
    ///
    /// - Throws: ``WorkoutError`` from Login or the first load.
    public func login(email: String, password: String) async throws(WorkoutError) {
        epoch += 1  // a load still running for an earlier session must not land
        let signedIn = try await client.login(email: email, password: password)
        status = .signedIn
        apply(profile: signedIn.profile, totals: signedIn.totals)
        try await load()
    }

    /// Continues the session of the client's stored token: loads everything and starts
    /// the live stream.
    ///
    /// - Throws: ``WorkoutError``: `UNAUTHENTICATED` when there is no valid session.
    public func resume() async throws(WorkoutError) {
        guard client.sessionToken != nil else {
            throw WorkoutError(code: .unauthenticated, message: "no stored session: sign in")
        }
        status = .signedIn
        try await load()
    }

    /// Signs out on the server and clears the model.
    ///
    /// - Throws: ``WorkoutError`` when the server cannot be reached (the model is cleared anyway).
    public func logout() async throws(WorkoutError) {
        stopWatching()
        clear(to: .signedOut)
        try await client.logout()
    }

    /// Stops the live stream (the model keeps its values).
    public func stopWatching() {
        watchGeneration += 1
        watchTask?.cancel()
        watchTask = nil
        isLive = false
    }

    // MARK: - Loading

    /// Reads everything afresh (profile, today's meals, recent workouts, weights,
    /// achievements) and (re)starts the live stream from the revision read.
    ///
    /// - Throws: ``WorkoutError``; `UNAUTHENTICATED` also turns ``status`` to ``Status/expired``.
    public func load() async throws(WorkoutError) {
        let started = epoch
        do {
            let snapshot = try await client.profile()
            guard epoch == started else { return }
            apply(profile: snapshot.profile, totals: snapshot.totals)
            let zone = snapshot.profile.timeZone
            let day = LocalDate.today(in: TimeZone(identifier: zone) ?? .current)
            async let meals = client.mealsOfDay(day, timeZone: zone)
            async let workouts = client.workoutHistory(pageSize: Self.recentWorkoutLimit)
            async let weightPage = client.weightProgress(
                from: Date().addingTimeInterval(-Double(Self.weightWindowDays) * 86_400), pageSize: 1_000)
            async let unlocked = client.achievements()
            async let steps = client.summaries(from: day, to: day)
            let loaded = (
                meals: try await meals.meals, workouts: try await workouts.items, weights: try await weightPage.items,
                achievements: try await unlocked, steps: try await steps.first?.steps ?? 0)
            guard epoch == started else { return }
            today = day
            todaysMeals = loaded.meals
            recentWorkouts = loaded.workouts
            weights = loaded.weights
            achievements = loaded.achievements
            todaysSteps = loaded.steps
            revision = max(revision, snapshot.revision)
            lastError = nil
            startWatching(since: snapshot.revision)
        } catch let error as WorkoutError {
            guard epoch == started else { throw error }
            note(error)
            throw error
        } catch {
            let wrapped = WorkoutError(code: .unknown, message: "\(error)")
            note(wrapped)
            throw wrapped
        }
    }

    // MARK: - Writing through the model

    /// Logs a workout; the model shows it, the new totals and any achievement at once.
    ///
    /// - Returns: The server's answer.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func log(_ workout: Workout) async throws(WorkoutError) -> LoggedWorkout {
        let logged = try await guarded { try await $0.logWorkout(workout) }
        upsert(logged.workout)
        totals = logged.totals
        logged.unlocked.forEach { upsert($0) }
        return logged
    }

    /// Logs a meal; today's meals show it at once when it is today's.
    ///
    /// - Returns: The server's answer.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func log(_ meal: Meal) async throws(WorkoutError) -> LoggedMeal {
        let logged = try await guarded { try await $0.logMeal(meal) }
        upsert(logged.meal)
        return logged
    }

    /// Logs a weigh-in; the series (and the profile's weight, when newest) shows it at once.
    ///
    /// - Returns: The server's answer.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func log(_ entry: WeightEntry) async throws(WorkoutError) -> LoggedWeight {
        let logged = try await guarded { try await $0.logWeight(entry) }
        upsert(logged.entry)
        if logged.profileWeightUpdated { profile?.weightKg = logged.entry.weightKg }
        return logged
    }

    /// Reports steps; today's figure shows it at once when it is today's.
    ///
    /// - Returns: The server's answer.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func report(_ steps: StepsReport) async throws(WorkoutError) -> StepsUpdate {
        let update = try await guarded { try await $0.reportSteps(steps) }
        if update.day.day == today { todaysSteps = update.day.steps }
        return update
    }

    /// Deletes a workout; the model drops it and takes back its totals at once.
    ///
    /// - Throws: ``WorkoutError``.
    public func deleteWorkout(_ id: UUID) async throws(WorkoutError) {
        let deleted = try await guarded { try await $0.deleteWorkout(id) }
        recentWorkouts.removeAll { $0.id == id }
        totals = deleted.totals
    }

    /// Deletes a meal; today's meals drop it at once.
    ///
    /// - Throws: ``WorkoutError``.
    public func deleteMeal(_ id: UUID) async throws(WorkoutError) {
        try await guarded { try await $0.deleteMeal(id) }
        todaysMeals.removeAll { $0.id == id }
    }

    /// Deletes a weigh-in; the series drops it at once.
    ///
    /// - Throws: ``WorkoutError``.
    public func deleteWeight(_ id: UUID) async throws(WorkoutError) {
        try await guarded { try await $0.deleteWeight(id) }
        weights.removeAll { $0.id == id }
    }

    // MARK: - The live stream

    private func startWatching(since start: UInt64) {
        watchTask?.cancel()
        watchGeneration += 1
        let generation = watchGeneration
        let events = client.watchEvents(since: start) { [weak self] _ in
            Task { @MainActor [weak self] in
                guard let self, watchGeneration == generation else { return }
                isLive = false
            }
        }
        watchTask = Task { [weak self] in
            do {
                for try await event in events {
                    guard let self, watchGeneration == generation else { return }
                    apply(event)
                }
            } catch {
                guard let self, watchGeneration == generation else { return }
                watchEnded(error)
            }
        }
    }

    private func watchEnded(_ error: any Error) {
        isLive = false
        note(error as? WorkoutError ?? WorkoutError(code: .unknown, message: "\(error)"))
    }

    /// Applies a Watch event: each change in its current state, in revision order.
    private func apply(_ event: WatchEvent) {
        // Upserts compare revisions, so a change the model already has is harmless.
        event.changes.forEach(apply)
        if let eventTotals = event.totals { totals = eventTotals }
        revision = max(revision, event.revision)
        if event.caughtUp { isLive = true }
        lastError = nil
    }

    private func apply(_ change: Change) {
        switch change.item {
        case .workout(let workout):
            upsert(workout)
        case .meal(let meal):
            upsert(meal)
        case .weight(let entry):
            upsert(entry)
        case .steps(let day):
            if day.day == today { todaysSteps = day.steps }
        case .achievement(let achievement):
            upsert(achievement)
        case .profile(let changed):
            let zoneChanged = profile?.timeZone != changed.timeZone
            profile = changed
            if zoneChanged { today = LocalDate.today(in: TimeZone(identifier: changed.timeZone) ?? .current) }
        case .deleted(let kind, let id):
            switch kind {
            case .workout: recentWorkouts.removeAll { $0.id == id }
            case .meal: todaysMeals.removeAll { $0.id == id }
            case .weightEntry: weights.removeAll { $0.id == id }
            }
        case nil:
            break  // a kind of change this client does not know
        }
    }

    // MARK: - Keeping the collections in order

    private func upsert(_ workout: Workout) {
        if let index = recentWorkouts.firstIndex(where: { $0.id == workout.id }) {
            guard recentWorkouts[index].revision <= workout.revision else { return }
            recentWorkouts[index] = workout
        } else {
            recentWorkouts.append(workout)
        }
        recentWorkouts.sort { ($0.performedAt, $0.id.uuidString) > ($1.performedAt, $1.id.uuidString) }
        if recentWorkouts.count > Self.recentWorkoutLimit {
            recentWorkouts.removeLast(recentWorkouts.count - Self.recentWorkoutLimit)
        }
    }

    private func upsert(_ meal: Meal) {
        let index = todaysMeals.firstIndex { $0.id == meal.id }
        if let index, todaysMeals[index].revision > meal.revision { return }
        guard meal.localDay == today else {
            // Moved to another day (or never today's).
            if let index { todaysMeals.remove(at: index) }
            return
        }
        if let index { todaysMeals[index] = meal } else { todaysMeals.append(meal) }
        todaysMeals.sort { ($0.eatenAt, $0.id.uuidString) < ($1.eatenAt, $1.id.uuidString) }
    }

    private func upsert(_ entry: WeightEntry) {
        if let index = weights.firstIndex(where: { $0.id == entry.id }) {
            guard weights[index].revision <= entry.revision else { return }
            weights[index] = entry
        } else {
            weights.append(entry)
        }
        weights.sort { ($0.measuredAt, $0.id.uuidString) < ($1.measuredAt, $1.id.uuidString) }
    }

    private func upsert(_ achievement: Achievement) {
        if let index = achievements.firstIndex(where: { $0.id == achievement.id }) {
            achievements[index] = achievement
        } else {
            achievements.append(achievement)
        }
    }

    // MARK: - Details

    private func apply(profile newProfile: Profile, totals newTotals: Totals) {
        profile = newProfile
        totals = newTotals
        today = LocalDate.today(in: TimeZone(identifier: newProfile.timeZone) ?? .current)
    }

    /// Runs a client call; an ended session turns the model to ``Status/expired``.
    @discardableResult
    private func guarded<Result>(_ body: (WorkoutClient) async throws -> Result) async throws(WorkoutError) -> Result {
        do {
            return try await body(client)
        } catch {
            let failure = error as? WorkoutError ?? WorkoutError(code: .unknown, message: "\(error)")
            if failure.code == .unauthenticated, status == .signedIn { expire(failure) }
            throw failure
        }
    }

    private func note(_ error: WorkoutError) {
        lastError = error
        if error.code == .unauthenticated, status == .signedIn { expire(error) }
    }

    private func expire(_ error: WorkoutError) {
        stopWatching()
        clear(to: .expired)
        lastError = error
    }

    private func clear(to newStatus: Status) {
        epoch += 1
        status = newStatus
        profile = nil
        totals = nil
        revision = 0
        today = nil
        todaysMeals = []
        todaysSteps = 0
        recentWorkouts = []
        weights = []
        achievements = []
        isLive = false
    }
}
