// Helpers shared by the operation tests: a fresh household on a temporary store with a
// hand-moved clock, members made the way the apps make them (the owner through
// createOwner + login, everyone else through an invite + register), and builders for the
// requests the tests send.

import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The instant every household starts at unless a test says otherwise: 2026-06-01T12:00:00Z.
let householdStart: Int64 = 1_780_315_200_000

/// A password every test member shares (they are told apart by email).
let testPassword = "correct horse battery"

/// One signed-in member of a test household.
struct Member: Sendable {
    /// What login or registration answered.
    var auth: HouseholdStore.Authenticated
    /// The member's email, as registered.
    var email: String
    /// The member's current password.
    var password: String

    /// The session the member calls with.
    var caller: Caller { auth.caller }
    /// The member's id.
    var userID: UUID { auth.caller.userID }
    /// The session token, for Resume.
    var token: [UInt8] { auth.token ?? [] }
}

/// A household on a fresh temporary store: its store, its clock and its owner.
struct Household: Sendable {
    /// The store under test.
    let store: HouseholdStore
    /// The clock the store reads; tests move it.
    let clock: ManualClock
    /// The owner, signed in.
    let owner: Member

    /// Invites and registers a member, signed in on one session.
    ///
    /// - Parameters:
    ///   - name: First name; the email is `<name>@example.com` in lower case.
    ///   - timeZone: The profile's time zone.
    ///   - role: The invite's role.
    ///   - share: Whether the member shares with the household view.
    func addMember(_ name: String, timeZone: String = "Europe/Berlin", role: Workout_V1_Role = .member, share: Bool = false) async throws -> Member {
        var invite = Workout_V1_CreateInviteRequest()
        invite.role = role
        let code = try await store.createInvite(owner.caller, invite).code
        var request = Workout_V1_RegisterRequest()
        request.inviteCode = code
        request.password = testPassword
        request.deviceName = "\(name)'s phone"
        request.profile.email = "\(name.lowercased())@example.com"
        request.profile.firstName = name
        request.profile.timeZone = timeZone
        request.profile.shareWithHousehold = share
        let auth = try await store.register(request, source: "10.0.0.\(name.count)", agent: "tests")
        return Member(auth: auth, email: request.profile.email, password: testPassword)
    }

    /// Opens another session for `member` (another device).
    func login(_ member: Member, device: String = "tablet", source: String = "10.0.0.9") async throws -> Member {
        var request = Workout_V1_LoginRequest()
        request.email = member.email
        request.password = member.password
        request.deviceName = device
        var signedIn = member
        signedIn.auth = try await store.login(request, source: source, agent: "tests")
        return signedIn
    }
}

/// Runs `body` on a household in a fresh temporary directory: an owner in `ownerZone`
/// created with createOwner and signed in with login, a ``ManualClock`` at `now`, and fast
/// password hashing. Commits skip fsync (`MDB_NOSYNC`): these tests are about the domain,
/// durability is the storage tests' business.
func withHousehold<R>(
    now: Int64 = householdStart, ownerZone: String = "Europe/Berlin",
    configure: (inout HouseholdStore.Configuration) -> Void = { _ in },
    _ body: (Household) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { directory in
        let clock = ManualClock(now)
        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        configuration.environment.flags = [.noSync]
        configure(&configuration)
        let store = try HouseholdStore(directory: directory, configuration: configuration, clock: clock)
        defer { store.close() }
        _ = try store.createOwner(email: "owner@example.com", password: testPassword, firstName: "Olga", timeZone: ownerZone)
        var login = Workout_V1_LoginRequest()
        login.email = "owner@example.com"
        login.password = testPassword
        let auth = try await store.login(login, source: "127.0.0.1", agent: "tests")
        let owner = Member(auth: auth, email: "owner@example.com", password: testPassword)
        return try await body(Household(store: store, clock: clock, owner: owner))
    }
}

/// Expects `body` to throw a ``DomainError`` with `code` (and, when given, `field`).
func expectDomainError<R>(
    _ code: DomainError.Code, field: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    do {
        _ = try await body()
        Issue.record("expected \(code)\(field.map { " on \($0)" } ?? ""), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as DomainError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field { #expect(error.field == field, "\(error)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected a DomainError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

// MARK: Requests

/// A fresh random record id (16 bytes, not all zero).
func newID() -> Data { UUID().data }

/// A workout as a client sends it.
func workout(
    id: Data = newID(), at performedAt: Int64, zone: String = "", type: String = "run",
    seconds: UInt32 = 1_800, calories: Double = 300, exercises: UInt32 = 0, notes: String = ""
) -> Workout_V1_Workout {
    var workout = Workout_V1_Workout()
    workout.id = id
    workout.workoutType = type
    workout.durationSeconds = seconds
    workout.caloriesBurned = calories
    workout.exercisesCompleted = exercises
    workout.performedAtMs = performedAt
    workout.timeZone = zone
    workout.notes = notes
    return workout
}

/// A meal as a client sends it, one item per calorie figure.
func meal(id: Data = newID(), at eatenAt: Int64, zone: String = "", type: Workout_V1_MealType = .lunch, items: [Double] = [500]) -> Workout_V1_Meal {
    var meal = Workout_V1_Meal()
    meal.id = id
    meal.mealType = type
    meal.eatenAtMs = eatenAt
    meal.timeZone = zone
    meal.items = items.enumerated().map { index, calories in
        var item = Workout_V1_FoodItem()
        item.name = "item \(index)"
        item.calories = calories
        item.proteinG = (calories / 20).rounded()
        item.carbsG = (calories / 8).rounded()
        item.fatG = (calories / 40).rounded()
        return item
    }
    return meal
}

/// A weight entry as a client sends it.
func weightEntry(id: Data = newID(), kg: Double, at measuredAt: Int64, zone: String = "", note: String = "") -> Workout_V1_WeightEntry {
    var entry = Workout_V1_WeightEntry()
    entry.id = id
    entry.weightKg = kg
    entry.measuredAtMs = measuredAt
    entry.timeZone = zone
    entry.note = note
    return entry
}

/// A steps report as a client sends it.
func stepsReport(day: LocalDay, source: String, steps: UInt32, reportedAt: Int64) -> Workout_V1_StepsReport {
    var report = Workout_V1_StepsReport()
    report.day = day.wire
    report.source = source
    report.steps = steps
    report.reportedAtMs = reportedAt
    return report
}

extension HouseholdStore {
    /// Logs `workout` for `member`.
    @discardableResult
    func log(_ member: Member, _ workout: Workout_V1_Workout) async throws -> Workout_V1_LogWorkoutResponse {
        var request = Workout_V1_LogWorkoutRequest()
        request.workout = workout
        return try await logWorkout(member.caller, request)
    }

    /// Logs `meal` for `member`.
    @discardableResult
    func log(_ member: Member, _ meal: Workout_V1_Meal) async throws -> Workout_V1_LogMealResponse {
        var request = Workout_V1_LogMealRequest()
        request.meal = meal
        return try await logMeal(member.caller, request)
    }

    /// Logs `entry` for `member`.
    @discardableResult
    func log(_ member: Member, _ entry: Workout_V1_WeightEntry) async throws -> Workout_V1_LogWeightResponse {
        var request = Workout_V1_LogWeightRequest()
        request.entry = entry
        return try await logWeight(member.caller, request)
    }

    /// Reports `report` for `member`.
    @discardableResult
    func report(_ member: Member, _ report: Workout_V1_StepsReport) async throws -> Workout_V1_ReportStepsResponse {
        var request = Workout_V1_ReportStepsRequest()
        request.report = report
        return try await reportSteps(member.caller, request)
    }

    /// Replaces a workout of `member`'s.
    @discardableResult
    func update(_ member: Member, _ workout: Workout_V1_Workout) async throws -> Workout_V1_UpdateWorkoutResponse {
        var request = Workout_V1_UpdateWorkoutRequest()
        request.workout = workout
        return try await updateWorkout(member.caller, request)
    }

    /// Deletes a workout of `member`'s.
    @discardableResult
    func deleteWorkout(_ member: Member, id: Data) async throws -> Workout_V1_DeleteWorkoutResponse {
        var request = Workout_V1_DeleteWorkoutRequest()
        request.id = id
        return try await deleteWorkout(member.caller, request)
    }

    /// Deletes a meal of `member`'s.
    @discardableResult
    func deleteMeal(_ member: Member, id: Data) async throws -> Workout_V1_DeleteMealResponse {
        var request = Workout_V1_DeleteMealRequest()
        request.id = id
        return try await deleteMeal(member.caller, request)
    }

    /// Deletes a weight entry of `member`'s.
    @discardableResult
    func deleteWeight(_ member: Member, id: Data) async throws -> Workout_V1_DeleteWeightResponse {
        var request = Workout_V1_DeleteWeightRequest()
        request.id = id
        return try await deleteWeight(member.caller, request)
    }

    /// `member`'s profile, totals and revision.
    func profile(_ member: Member) throws -> Workout_V1_GetProfileResponse {
        try getProfile(member.caller)
    }

    /// Every workout of `member`'s, newest first, through the paged history.
    func allWorkouts(_ member: Member, pageSize: UInt32 = 100, from: Int64 = 0, to: Int64 = 0) throws -> [Workout_V1_Workout] {
        var request = Workout_V1_WorkoutHistoryRequest()
        request.pageSize = pageSize
        request.fromMs = from
        request.toMs = to
        var all: [Workout_V1_Workout] = []
        repeat {
            let page = try workoutHistory(member.caller, request)
            all += page.workouts
            request.pageToken = page.nextPageToken
        } while !request.pageToken.isEmpty
        return all
    }

    /// Every weight entry of `member`'s, oldest first, through the paged progress query.
    func allWeights(_ member: Member, pageSize: UInt32 = 1_000, from: Int64 = 0, to: Int64 = 0) throws -> [Workout_V1_WeightEntry] {
        var request = Workout_V1_WeightProgressRequest()
        request.pageSize = pageSize
        request.fromMs = from
        request.toMs = to
        var all: [Workout_V1_WeightEntry] = []
        repeat {
            let page = try weightProgress(member.caller, request)
            all += page.entries
            request.pageToken = page.nextPageToken
        } while !request.pageToken.isEmpty
        return all
    }

    /// Every change of `member`'s after `since`, through pages of `pageSize`.
    func allChanges(_ member: Member, since: UInt64 = 0, pageSize: UInt32 = 100) throws -> (changes: [Workout_V1_Change], pages: Int, revision: UInt64) {
        var request = Workout_V1_ChangesRequest()
        request.sinceRevision = since
        request.pageSize = pageSize
        var all: [Workout_V1_Change] = []
        var pages = 0
        while true {
            let page = try changes(member.caller, request)
            pages += 1
            all += page.changes
            request.sinceRevision = page.revision
            if !page.hasMore_p { return (all, pages, page.revision) }
        }
    }
}

// MARK: Reference computations (Foundation's calendar, not LocalDay)

/// The local day of an instant in a zone, by Foundation's Gregorian calendar.
func referenceDay(_ milliseconds: Int64, _ zoneName: String) -> LocalDay {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zoneName)!
    let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    return LocalDay(year: Int32(parts.year!), month: Int32(parts.month!), day: Int32(parts.day!))!
}

/// Midnight to midnight of a day in a zone, by Foundation's Gregorian calendar.
func referenceInterval(_ day: LocalDay, _ zoneName: String) -> Range<Int64> {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zoneName)!
    func start(_ day: LocalDay) -> Int64 {
        let noon = calendar.date(from: DateComponents(year: Int(day.year), month: Int(day.month), day: Int(day.day), hour: 12))!
        return Int64((calendar.startOfDay(for: noon).timeIntervalSince1970 * 1000).rounded())
    }
    return start(day)..<start(day.adding(days: 1))
}

/// An instant given as a local wall-clock time in a zone, e.g. `local("2026-03-10 23:30", "America/New_York")`.
func local(_ text: String, _ zoneName: String) -> Int64 {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: zoneName)!
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    guard let date = formatter.date(from: text) else { fatalError("bad local time \(text)") }
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
}

extension Workout_V1_LocalDate {
    /// The date as a ``LocalDay`` (tests only: traps on an invalid date).
    var localDay: LocalDay { LocalDay(year: year, month: month, day: day)! }
}

// MARK: A typical history

/// The ids of what ``fillHistory(_:_:days:)`` logged and kept.
struct History: Sendable {
    var workouts: [Data] = []
    var meals: [Data] = []
    var weights: [Data] = []
    /// Ids of records that were logged and then deleted (tombstones).
    var deleted: [Data] = []
}

extension HouseholdStore {
    /// Logs a little of everything for `member` over `days` days ending at the clock's day:
    /// a workout a day (so streak achievements unlock), a meal a day, a weight entry every
    /// other day, steps from two sources, one deleted record of each kind, and a profile edit.
    @discardableResult
    func fillHistory(_ member: Member, _ clock: ManualClock, days: Int = 5) async throws -> History {
        var history = History()
        let now = clock.nowMilliseconds()
        for day in 0..<days {
            let at = now - Int64(days - day) * 86_400_000 + Int64(day) * 60_000
            history.workouts.append(try await log(member, workout(at: at, notes: "private note of \(member.email), day \(day)")).workout.id)
            history.meals.append(try await log(member, meal(at: at + 1_000, items: [300, 150])).meal.id)
            if day % 2 == 0 { history.weights.append(try await log(member, weightEntry(kg: 70 + Double(day), at: at)).entry.id) }
            let localDay = LocalDay.containing(instant: at, in: TimeZone(identifier: "UTC")!)
            try await report(member, stepsReport(day: localDay, source: "phone", steps: 5_000 + UInt32(day), reportedAt: at))
            try await report(member, stepsReport(day: localDay, source: "watch", steps: 6_000, reportedAt: at))
        }
        let doomedWorkout = try await log(member, workout(at: now - 3_600_000)).workout.id
        let doomedMeal = try await log(member, meal(at: now - 3_600_000)).meal.id
        let doomedWeight = try await log(member, weightEntry(kg: 99, at: now - 7_200_000)).entry.id
        try await deleteWorkout(member, id: doomedWorkout)
        try await deleteMeal(member, id: doomedMeal)
        try await deleteWeight(member, id: doomedWeight)
        history.deleted = [doomedWorkout, doomedMeal, doomedWeight]
        var update = Workout_V1_UpdateProfileRequest()
        update.displayName = "The \(member.email)"
        update.shareWithHousehold = true
        _ = try await updateProfile(member.caller, update)
        return history
    }
}

/// Whether `needle` occurs in `haystack` as a contiguous run of bytes.
func occurs(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) {
        var index = 0
        while index < needle.count, haystack[start + index] == needle[index] { index += 1 }
        if index == needle.count { return true }
    }
    return false
}
