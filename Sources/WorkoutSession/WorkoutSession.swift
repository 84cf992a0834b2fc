public import Foundation
public import Observation
public import WorkoutClient
public import WorkoutOffline

/// The single source of truth an app's views read: who is signed in, their profile and
/// totals, today's meals and steps, recent workouts, the weight series, achievements, the
/// week's summary, and the writes still waiting to reach the server.
///
/// **Starting.** With ``Storage`` (a snapshot file, and optionally the member's `Outbox`),
/// the model restores the last snapshot as soon as it is made: content on the first frame,
/// marked ``isStale``. ``resume()`` then returns at once and the model catches up with the
/// server's change feed from the snapshot's revision in the background, whenever the server
/// can be reached; ``isStale`` turns false when it has caught up. Without a snapshot,
/// ``login(email:password:)`` and ``resume()`` read everything (``isLoading`` meanwhile).
///
/// **Live.** A Watch stream keeps the model current, so a change made on another device shows
/// up without a refresh. ``isLive`` is true while that stream is connected and has delivered
/// everything up to now; it turns false when the connection drops and true again once the
/// stream (which reconnects by itself) has caught up. ``waitUntilLive(timeout:)`` awaits it.
/// ``connectivity`` says more: reconnecting after a lost connection, or unreachable (with the
/// last error) when no connection can be opened; a hung server is noticed by the client's
/// keepalive (`WorkoutClient.Configuration.keepalive`).
///
/// **Offline.** ``perform(_:)`` makes a write through the outbox: it shows at once, merged in
/// the way the server will apply it (the same rules: local days, streaks, points, levels,
/// achievements), its record's id in ``pendingRecordIDs``; the server's answer replaces the
/// guess. While the server is known to be unreachable, a write is queued at once (no connection
/// attempt). Waiting writes are sent when the stream catches up, or by ``sync()``; the figures
/// move once, when a sync is done, never through the states in between.
///
/// **Observation.** Every property changes on the main actor, and only when its value
/// changes: one incoming change touches only the properties it changes, and the echo of the
/// model's own write (its change arriving over Watch after the answer was shown) touches none.
///
/// **Ending.** Call ``close()`` when the model is no longer needed: it stops the stream and the
/// midnight timer and saves the snapshot. (Releasing the model also stops them, but only when
/// the last reference goes.) ``logout()`` signs out and deletes the snapshot.
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
    public static let recentWorkoutLimit = SessionContent.recentWorkoutLimit
    /// How far back ``weights`` reaches.
    public static let weightWindowDays = 365

    /// The client the session talks through.
    public let client: WorkoutClient
    /// Where the session keeps its snapshot and finds the member's outbox; `nil` for a model
    /// that keeps nothing on the device.
    public let storage: Storage?

    /// Whether a member is signed in.
    public internal(set) var status = Status.signedOut
    /// The member's profile.
    public internal(set) var profile: Profile?
    /// Their totals: workouts, calories, points, level, streaks (pending writes included).
    public internal(set) var totals: Totals?
    /// Today, in the profile's time zone; moves on by itself at the member's midnight.
    public internal(set) var today: LocalDate?
    /// Today's meals, in time order.
    public internal(set) var todaysMeals: [Meal] = []
    /// Today's step count (the highest of the day's sources).
    public internal(set) var todaysSteps = 0
    /// The newest workouts, newest first (at most ``recentWorkoutLimit``); refilled from the
    /// server when a deletion leaves gaps.
    public internal(set) var recentWorkouts: [Workout] = []
    /// Weigh-ins of the last ``weightWindowDays`` days, oldest first.
    public internal(set) var weights: [WeightEntry] = []
    /// Every achievement, with progress.
    public internal(set) var achievements: [Achievement] = []
    /// The ISO week (Monday to Sunday) holding ``today``: calories in and out, steps,
    /// workouts (`Queries.Summaries`, pending writes included).
    public internal(set) var week: PeriodSummary?
    /// The writes waiting in the outbox, oldest first, refused ones with their reasons.
    public internal(set) var pendingWrites: [OutboxEntry] = []
    /// The ids of the records shown with a write not yet confirmed by the server: mark them
    /// as pending.
    public internal(set) var pendingRecordIDs: Set<UUID> = []
    /// Whether the model is reading from the server: a first load, or catching up from a
    /// restored snapshot.
    public internal(set) var isLoading = false
    /// Whether what is shown came from the snapshot and the model has not caught up with the
    /// server since: true from a restored snapshot until the change feed has caught up.
    public internal(set) var isStale = false
    /// Whether the live stream is connected and caught up.
    public internal(set) var isLive = false
    /// Whether the model reaches the server: live, reconnecting, or unreachable (with the last
    /// error), for an "offline" banner. While it is ``Connectivity/unreachable(lastError:since:)``,
    /// ``isLoading`` is false and writes through the outbox are queued at once.
    public internal(set) var connectivity = Connectivity.idle
    /// The last failure of the live stream or a reload, for a banner; `nil` after success.
    public internal(set) var lastError: WorkoutError?
    /// Why the snapshot file was not used (damaged, another account's, another format), or
    /// `nil`; the model then started empty.
    public internal(set) var ignoredSnapshotReason: String?

    /// What today's meals add up to.
    public var todaysNutrition: NutritionTotals {
        todaysMeals.reduce(into: NutritionTotals()) { sum, meal in
            sum.calories += meal.totals.calories
            sum.proteinG += meal.totals.proteinG
            sum.carbsG += meal.totals.carbsG
            sum.fatG += meal.totals.fatG
        }
    }

    /// Whether a record shown has a write the server has not confirmed yet.
    ///
    /// - Parameter id: The record's id.
    /// - Returns: `true` while its write waits (or is on its way).
    public func isPending(_ id: UUID) -> Bool {
        pendingRecordIDs.contains(id)
    }

    /// The last revision of the member's data this model reflects (what the snapshot saves and
    /// the change feed resumes from). Not observed: it moves with every change, including the
    /// echo of the model's own writes.
    @ObservationIgnored public internal(set) var revision: UInt64 = 0

    /// What the server stated, before pending writes are merged in.
    @ObservationIgnored var content = SessionContent()
    /// Writes made through ``perform(_:)`` whose outcome is not known yet (shown as pending).
    @ObservationIgnored var inFlight: [(id: UUID, write: PendingWrite)] = []
    /// The clock: "today" and the midnight timer read it (tests move it).
    @ObservationIgnored var now: @Sendable () -> Date = { Date() }
    /// Moves on every sign-out or expiry, so a `load()` that was waiting meanwhile drops
    /// what it read instead of showing the previous member's data.
    @ObservationIgnored var epoch = 0
    @ObservationIgnored var watchTask: Task<Void, Never>?
    /// Counts started streams, so that events of a stopped one are never applied.
    @ObservationIgnored var watchGeneration = 0
    @ObservationIgnored var dayTask: Task<Void, Never>?
    @ObservationIgnored var weekTask: Task<Void, Never>?
    @ObservationIgnored var weekRequested = false
    @ObservationIgnored var refillTask: Task<Void, Never>?
    @ObservationIgnored var syncTask: Task<Void, Never>?
    @ObservationIgnored var saveTask: Task<Void, Never>?
    @ObservationIgnored var saveRequested = false
    @ObservationIgnored var liveWaiters: [UUID: CheckedContinuation<Result<Void, WorkoutError>, Never>] = [:]
    @ObservationIgnored var isClosed = false
    /// When the model last stopped being live (or started trying), while it is not live.
    @ObservationIgnored var offlineSince: Date?
    /// How many holds keep ``publish()`` from showing anything (a sync under way).
    @ObservationIgnored var figuresHeld = 0
    /// Counts week reads as they start, and the last one applied: an older read that ends
    /// later is dropped.
    @ObservationIgnored var weekReadsStarted = 0
    @ObservationIgnored var weekReadApplied = 0
    /// Writes the snapshots in order.
    @ObservationIgnored let snapshotWriter = SessionSnapshotWriter()

    /// Makes a session model over `client`.
    ///
    /// With `storage`, and a client carrying a stored session token, the snapshot of
    /// ``Storage/account`` is restored here, synchronously: the model shows it at once,
    /// ``isStale``, with ``status`` ``Status/signedIn``; call ``resume()`` to catch up. A snapshot
    /// that cannot be used is ignored (``ignoredSnapshotReason``) and the model starts empty.
    ///
    /// - Parameters:
    ///   - client: The client to talk through.
    ///   - storage: Where to keep the snapshot, and the member's outbox; `nil` for none.
    public init(client: WorkoutClient, storage: Storage? = nil) {
        self.client = client
        self.storage = storage
        guard let storage, client.sessionToken != nil else { return }
        switch storage.snapshotFile.read(account: storage.account) {
        case .restored(let snapshot):
            content = snapshot.content
            revision = snapshot.revision
            status = .signedIn
            isStale = true
        case .absent:
            break
        case .ignored(let reason):
            ignoredSnapshotReason = reason
        }
        publish()
    }

    isolated deinit {
        watchTask?.cancel()
        dayTask?.cancel()
        weekTask?.cancel()
        refillTask?.cancel()
        syncTask?.cancel()
        saveTask?.cancel()
    }

    // MARK: - Signing in and out

    /// Signs in, loads everything and starts the live stream.
    ///
    /// - Throws: `WorkoutError` from Login or the first load.
    public func login(email: String, password: String) async throws(WorkoutError) {
        epoch += 1  // a load still running for an earlier session must not land
        let signedIn = try await client.login(email: email, password: password)
        status = .signedIn
        content.profile = signedIn.profile
        content.totals = signedIn.totals
        publish()
        try await load()
    }

    /// Continues the session of the client's stored token.
    ///
    /// From a restored snapshot it returns at once: the model shows the snapshot and catches up
    /// with the server's change feed from the snapshot's revision in the background (waiting
    /// while the server cannot be reached); ``isStale`` turns false and ``isLive`` true when it
    /// has. Without one, it loads everything before returning.
    ///
    /// - Throws: `WorkoutError`: `UNAUTHENTICATED` when there is no stored session; the first
    ///   load's errors when there was no snapshot.
    public func resume() async throws(WorkoutError) {
        guard client.sessionToken != nil else {
            throw WorkoutError(code: .unauthenticated, message: "no stored session: sign in")
        }
        status = .signedIn
        if isStale, content.profile != nil {
            catchUp()
            return
        }
        try await load()
    }

    /// Signs out on the server, clears the model and deletes its snapshot.
    ///
    /// - Throws: `WorkoutError` when the server cannot be reached (the model is cleared anyway).
    public func logout() async throws(WorkoutError) {
        stopWatching()
        clear(to: .signedOut)
        storage?.deleteSnapshot(through: snapshotWriter)
        try await client.logout()
    }

    /// Stops the live stream (the model keeps its values).
    public func stopWatching() {
        watchGeneration += 1
        watchTask?.cancel()
        watchTask = nil
        set(\.isLive, false)
        set(\.connectivity, .idle)
        offlineSince = nil
    }

    /// Stops everything the model runs in the background — the live stream, the midnight timer,
    /// reads and syncs under way — fails anyone awaiting ``waitUntilLive(timeout:)`` with
    /// `CANCELLED`, and saves the snapshot. The model keeps its values; the client stays open
    /// (close it separately). Calling it again does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        stopWatching()
        for task in [dayTask, weekTask, refillTask, syncTask, saveTask] { task?.cancel() }
        dayTask = nil
        failLiveWaiters(WorkoutError(code: .cancelled, message: "the session model was closed"))
        saveSnapshotNow()
    }

    // MARK: - Loading

    /// Reads everything afresh (profile, today's meals and steps, recent workouts, weights,
    /// achievements, the week) and (re)starts the live stream from the revision read.
    ///
    /// - Throws: `WorkoutError`; `UNAUTHENTICATED` also turns ``status`` to ``Status/expired``.
    public func load() async throws(WorkoutError) {
        let started = epoch
        set(\.isLoading, true)
        defer { if epoch == started { set(\.isLoading, false) } }
        do {
            let snapshot = try await client.profile()
            guard epoch == started else { return }
            let zone = snapshot.profile.zone
            let day = LocalDate(now(), in: zone)
            async let meals = client.mealsOfDay(day, timeZone: snapshot.profile.timeZone)
            async let workouts = client.workoutHistory(pageSize: Self.recentWorkoutLimit)
            async let weightPage = client.weightProgress(
                from: now().addingTimeInterval(-Double(Self.weightWindowDays) * 86_400), pageSize: SessionContent.weightLimit)
            async let unlocked = client.achievements()
            async let days = client.summaries(from: day, to: day)
            async let weeks = client.summaries(from: day, to: day, granularity: .week)
            let loaded = (
                meals: try await meals.meals, workouts: try await workouts, weights: try await weightPage.items,
                achievements: try await unlocked, steps: try await days.first?.steps ?? 0, week: try await weeks.first)
            guard epoch == started else { return }
            var fresh = SessionContent()
            fresh.profile = snapshot.profile
            fresh.totals = snapshot.totals
            fresh.today = day
            fresh.todaysMeals = loaded.meals
            fresh.todaysSteps = loaded.steps
            fresh.recentWorkouts = loaded.workouts.items
            fresh.hasOlderWorkouts = loaded.workouts.hasMore
            fresh.weights = loaded.weights
            fresh.achievements = loaded.achievements
            fresh.week = loaded.week
            content = fresh
            revision = snapshot.revision
            set(\.isStale, false)
            set(\.lastError, nil)
            publish()
            scheduleSave()
            startDayClock()
            startWatching(since: snapshot.revision)
        } catch let error as WorkoutError {
            guard epoch == started else { throw error }
            note(error)
            if status == .signedIn, [.unavailable, .deadlineExceeded].contains(error.code) { serverUnreachable(error) }
            throw error
        } catch {
            let wrapped = WorkoutError(code: .unknown, message: "\(error)")
            note(wrapped)
            throw wrapped
        }
    }

    // MARK: - Showing

    /// Shows the content with the pending writes merged in, changing each property only when
    /// its value changes (so observers hear only of real changes).
    func publish() {
        guard figuresHeld == 0 else { return }  // shown when the hold ends
        let entries = status == .signedIn ? storage?.outbox?.entries ?? [] : []
        let waiting = entries.filter { $0.refusal == nil }
            + inFlight.map { OutboxEntry(id: .max, write: $0.write, queuedAt: now()) }
        let (shown, pendingIDs) = content.merging(waiting, now: now())
        set(\.profile, shown.profile)
        set(\.totals, shown.totals)
        set(\.today, shown.today)
        set(\.todaysMeals, shown.todaysMeals)
        set(\.todaysSteps, shown.todaysSteps)
        set(\.recentWorkouts, shown.recentWorkouts)
        set(\.weights, shown.weights)
        set(\.achievements, shown.achievements)
        set(\.week, shown.week)
        set(\.pendingWrites, entries)
        set(\.pendingRecordIDs, pendingIDs)
    }

    /// Sets a property only when the value differs (an `@Observable` setter reports every set).
    func set<Value: Equatable>(_ property: ReferenceWritableKeyPath<WorkoutSession, Value>, _ value: Value) {
        if self[keyPath: property] != value { self[keyPath: property] = value }
    }

    // MARK: - Failures

    /// Runs a client call; an ended session turns the model to ``Status/expired``.
    @discardableResult
    func guarded<Result>(_ body: (WorkoutClient) async throws -> Result) async throws(WorkoutError) -> Result {
        do {
            return try await body(client)
        } catch {
            let failure = error as? WorkoutError ?? WorkoutError(code: .unknown, message: "\(error)")
            if failure.code == .unauthenticated, status == .signedIn { expire(failure) }
            throw failure
        }
    }

    /// Shows a failure; an ended session turns the model to ``Status/expired``.
    func note(_ error: WorkoutError) {
        set(\.lastError, error)
        if error.code == .unauthenticated, status == .signedIn { expire(error) }
    }

    private func expire(_ error: WorkoutError) {
        stopWatching()
        clear(to: .expired)
        lastError = error
    }

    private func clear(to newStatus: Status) {
        epoch += 1
        dayTask?.cancel()
        dayTask = nil
        for task in [weekTask, refillTask, syncTask, saveTask] { task?.cancel() }
        // Forgotten too, so that a refresh or a save asked for after signing in again starts
        // at once instead of waiting behind a cancelled task (the snapshot writer keeps saves
        // in order whatever runs at once).
        (weekTask, refillTask, syncTask, saveTask) = (nil, nil, nil, nil)
        saveRequested = false
        status = newStatus
        content = SessionContent()
        inFlight = []
        revision = 0
        set(\.isStale, false)
        set(\.isLoading, false)
        set(\.isLive, false)
        set(\.connectivity, .idle)
        offlineSince = nil
        publish()
        failLiveWaiters(WorkoutError(code: .unauthenticated, message: "the session ended"))
    }
}
