import Foundation
import Testing
@testable import WorkoutClient
import WorkoutProtocol

/// Each type against a wire message with a non-default value in every field: the message
/// converts to the expected value (no field dropped or swapped), and a value the client sends
/// converts back to an equal message.
@Suite("Wire conversions")
struct WireConversionTests {
    @Test("A profile converts from the wire")
    func profile() {
        #expect(Profile(wire: Fixtures.profileWire) == Fixtures.profile)
    }

    @Test("Totals convert from the wire")
    func totals() {
        #expect(Totals(wire: Fixtures.totalsWire) == Fixtures.totals)
    }

    @Test("A workout converts both ways")
    func workout() throws {
        #expect(Workout(wire: Fixtures.workoutWire) == Fixtures.workout)
        #expect(try Fixtures.workout.wire() == Fixtures.workoutWire)
        // A count that does not fit the wire is refused by name, not clamped into another.
        var huge = Fixtures.workout
        huge.durationSeconds = Int(UInt32.max) + 1
        #expect(throws: WorkoutError.self) { try huge.wire() }
        var negative = Fixtures.workout
        negative.steps = -1
        let refusal = #expect(throws: WorkoutError.self) { try negative.wire() }
        #expect(refusal?.wireField == "workout.steps")
    }

    @Test("A food item converts both ways")
    func foodItem() {
        #expect(FoodItem(wire: Fixtures.foodItemWire) == Fixtures.foodItem)
        #expect(Fixtures.foodItem.wire == Fixtures.foodItemWire)
    }

    @Test("Nutrition totals convert both ways")
    func nutritionTotals() {
        #expect(NutritionTotals(wire: Fixtures.nutritionTotalsWire) == Fixtures.nutritionTotals)
        #expect(Fixtures.nutritionTotals.wire == Fixtures.nutritionTotalsWire)
    }

    @Test("A meal converts both ways")
    func meal() {
        #expect(Meal(wire: Fixtures.mealWire) == Fixtures.meal)
        #expect(Fixtures.meal.wire == Fixtures.mealWire)
    }

    @Test("A weight entry converts both ways")
    func weightEntry() {
        #expect(WeightEntry(wire: Fixtures.weightEntryWire) == Fixtures.weightEntry)
        #expect(Fixtures.weightEntry.wire == Fixtures.weightEntryWire)
    }

    @Test("A steps report converts both ways")
    func stepsReport() throws {
        #expect(StepsReport(wire: Fixtures.stepsReportWire) == Fixtures.stepsReport)
        #expect(try Fixtures.stepsReport.wire() == Fixtures.stepsReportWire)
        var huge = Fixtures.stepsReport
        huge.steps = Int(UInt32.max) + 1
        #expect(throws: WorkoutError.self) { try huge.wire() }
    }

    @Test("A steps day converts from the wire")
    func stepsDay() {
        #expect(StepsDay(wire: Fixtures.stepsDayWire) == Fixtures.stepsDay)
    }

    @Test("An achievement converts from the wire")
    func achievement() {
        #expect(Achievement(wire: Fixtures.achievementWire) == Fixtures.achievement)
    }

    @Test("Session facts convert from the wire")
    func sessionInfo() {
        #expect(SessionInfo(wire: Fixtures.sessionInfoWire) == Fixtures.sessionInfo)
    }

    @Test("An invite converts from the wire")
    func invite() {
        #expect(Invite(wire: Fixtures.inviteWire) == Fixtures.invite)
    }

    @Test("Member facts convert from the wire")
    func memberInfo() {
        #expect(MemberInfo(wire: Fixtures.memberInfoWire) == Fixtures.memberInfo)
    }

    @Test("A household member converts from the wire")
    func householdMember() {
        #expect(HouseholdMember(wire: Fixtures.householdMemberWire) == Fixtures.householdMember)
    }

    @Test("A latency summary converts from the wire")
    func latency() {
        #expect(LatencySummary(wire: Fixtures.latencyWire) == Fixtures.latency)
    }

    @Test("Method counters key statuses by name, unknown numbers included")
    func methodStats() {
        #expect(MethodStats(wire: Fixtures.methodStatsWire) == Fixtures.methodStats)
    }

    @Test("Server counters convert from the wire")
    func serverStats() {
        let stats = ServerStats(wire: Fixtures.statsWire)
        #expect(stats.methods.map(\.method) == [101, 301])
        #expect(stats.storeSizeBytes == 1 << 30)
        #expect(stats.serverTime == Fixtures.date(1_764_000_000_999))
    }

    @Test("A health answer converts from the wire")
    func serverHealth() {
        let health = ServerHealth(wire: Fixtures.healthWire)
        #expect(health == ServerHealth(
            isServing: true, serverAgent: "workoutd", serverVersion: "1.0.0",
            serverTime: Fixtures.date(1_764_000_000_998), uptimeMilliseconds: 3_600_001
        ))
    }

    @Test("A catalog converts from the wire")
    func catalog() {
        let catalog = ServerCatalog(wire: Fixtures.catalogWire)
        #expect(catalog.method(named: "Auth.Login")?.number == 101)
        #expect(catalog.method(named: "Streams.Export") == nil)
    }

    // MARK: Query results

    @Test("A period summary converts from the wire")
    func periodSummary() {
        var m = Workout_V1_PeriodSummary()
        m.start = Fixtures.day(2026, 11, 16)
        m.end = Fixtures.day(2026, 11, 22)
        m.caloriesEaten = 14_000.5
        m.caloriesBurned = 2_100.25
        m.workouts = 5
        m.activeSeconds = 9_000
        m.steps = 70_123
        m.proteinG = 600.5
        m.carbsG = 1_500.25
        m.fatG = 450.75
        m.meals = 21
        let summary = PeriodSummary(wire: m)
        #expect(summary.start == Fixtures.localDate(2026, 11, 16))
        #expect(summary.end == Fixtures.localDate(2026, 11, 22))
        #expect(summary.steps == 70_123)
    }

    @Test("The meals of a day convert from the wire")
    func mealsOfDay() {
        var m = Workout_V1_MealsOfDayResponse()
        m.day = Fixtures.day(2026, 3, 29)
        m.timeZone = "Europe/Berlin"
        m.dayStartMs = 1_774_738_800_000
        m.dayEndMs = 1_774_821_600_000
        m.meals = [Fixtures.mealWire]
        m.totals = Fixtures.nutritionTotalsWire
        let day = MealsOfDay(wire: m)
        #expect(day.day == Fixtures.localDate(2026, 3, 29))
        #expect(day.dayEnd.timeIntervalSince(day.dayStart) == 23 * 3600)
        #expect(day.meals == [Fixtures.meal])
    }

    @Test("A page of workouts keeps its next-page token; an empty token means the last page")
    func workoutPage() {
        var m = Workout_V1_WorkoutHistoryResponse()
        m.workouts = [Fixtures.workoutWire, Fixtures.workoutWire]
        m.nextPageToken = Data([1, 2, 3, 250])
        let page = Page<Workout>(wire: m)
        #expect(page.items == [Fixtures.workout, Fixtures.workout])
        #expect(page.nextPageToken?.base64 == "AQID+g==")
        #expect(page.hasMore)

        m.nextPageToken = Data()
        let last = Page<Workout>(wire: m)
        #expect(last.nextPageToken == nil)
        #expect(!last.hasMore)
    }

    @Test("A page of weight entries converts from the wire")
    func weightPage() {
        var m = Workout_V1_WeightProgressResponse()
        m.entries = [Fixtures.weightEntryWire]
        m.nextPageToken = Data([9, 8, 7])
        let page = Page<WeightEntry>(wire: m)
        #expect(page.items == [Fixtures.weightEntry])
    }

    @Test("A page of changes converts from the wire")
    func changesPage() {
        let page = ChangesPage(wire: Fixtures.changesWire)
        #expect(page.changes.map(\.revision) == [38, 39])
        #expect(page.hasMore)
        #expect(page.totals == Fixtures.totals)
    }

    // MARK: Call results

    @Test("Login, registration and resume answers all give a signed-in result")
    func signedIn() {
        var login = Workout_V1_LoginResponse()
        login.sessionToken = Fixtures.sessionToken.wire
        login.session = Fixtures.sessionInfoWire
        login.profile = Fixtures.profileWire
        login.totals = Fixtures.totalsWire
        login.revision = 41
        let expected = SignedIn(
            token: Fixtures.sessionToken, session: Fixtures.sessionInfo, profile: Fixtures.profile,
            totals: Fixtures.totals, revision: 41
        )
        #expect(SignedIn(wire: login) == expected)

        var register = Workout_V1_RegisterResponse()
        register.sessionToken = login.sessionToken
        register.session = login.session
        register.profile = login.profile
        register.totals = login.totals
        register.revision = login.revision
        #expect(SignedIn(wire: register) == expected)

        var resume = Workout_V1_ResumeResponse()
        resume.session = login.session
        resume.profile = login.profile
        resume.totals = login.totals
        resume.revision = login.revision
        #expect(SignedIn(wire: resume, token: Fixtures.sessionToken) == expected)
    }

    @Test("Get-profile and update-profile answers give a snapshot")
    func profileSnapshot() {
        var get = Workout_V1_GetProfileResponse()
        get.profile = Fixtures.profileWire
        get.totals = Fixtures.totalsWire
        get.revision = 41
        let expected = ProfileSnapshot(profile: Fixtures.profile, totals: Fixtures.totals, revision: 41)
        #expect(ProfileSnapshot(wire: get) == expected)

        var update = Workout_V1_UpdateProfileResponse()
        update.profile = get.profile
        update.totals = get.totals
        update.revision = get.revision
        #expect(ProfileSnapshot(wire: update) == expected)
    }

    @Test("A logged workout converts from the wire")
    func loggedWorkout() {
        var m = Workout_V1_LogWorkoutResponse()
        m.workout = Fixtures.workoutWire
        m.totals = Fixtures.totalsWire
        m.unlocked = [Fixtures.achievementWire]
        m.replayed = true
        let logged = LoggedWorkout(wire: m)
        #expect(logged == LoggedWorkout(workout: Fixtures.workout, totals: Fixtures.totals, unlocked: [Fixtures.achievement], replayed: true))
    }

    @Test("An updated workout converts from the wire")
    func updatedWorkout() {
        var m = Workout_V1_UpdateWorkoutResponse()
        m.workout = Fixtures.workoutWire
        m.totals = Fixtures.totalsWire
        m.unlocked = [Fixtures.achievementWire]
        let updated = UpdatedWorkout(wire: m)
        #expect(updated == UpdatedWorkout(workout: Fixtures.workout, totals: Fixtures.totals, unlocked: [Fixtures.achievement]))
    }

    @Test("A deleted workout converts from the wire")
    func deletedWorkout() {
        var m = Workout_V1_DeleteWorkoutResponse()
        m.deleted = true
        m.totals = Fixtures.totalsWire
        #expect(DeletedWorkout(wire: m) == DeletedWorkout(deleted: true, totals: Fixtures.totals))
    }

    @Test("A logged meal converts from the wire")
    func loggedMeal() {
        var m = Workout_V1_LogMealResponse()
        m.meal = Fixtures.mealWire
        m.replayed = true
        #expect(LoggedMeal(wire: m) == LoggedMeal(meal: Fixtures.meal, replayed: true))
    }

    @Test("A logged weight converts from the wire")
    func loggedWeight() {
        var m = Workout_V1_LogWeightResponse()
        m.entry = Fixtures.weightEntryWire
        m.replayed = true
        m.profileWeightUpdated = true
        #expect(LoggedWeight(wire: m) == LoggedWeight(entry: Fixtures.weightEntry, replayed: true, profileWeightUpdated: true))
    }

    @Test("A steps update converts from the wire")
    func stepsUpdate() {
        var m = Workout_V1_ReportStepsResponse()
        m.day = Fixtures.stepsDayWire
        m.applied = true
        #expect(StepsUpdate(wire: m) == StepsUpdate(day: Fixtures.stepsDay, applied: true))
    }

    @Test("A created invite converts from the wire")
    func createdInvite() {
        var m = Workout_V1_CreateInviteResponse()
        m.code = "K7QX-93MP-WT2A"
        m.invite = Fixtures.inviteWire
        #expect(CreatedInvite(wire: m) == CreatedInvite(code: "K7QX-93MP-WT2A", invite: Fixtures.invite))
    }

    @Test("A watch event converts from the wire, with and without totals")
    func watchEvent() {
        var m = Workout_V1_WatchEvent()
        m.changes = Fixtures.changesWire.changes
        m.revision = 39
        m.totals = Fixtures.totalsWire
        m.caughtUp = true
        let event = WatchEvent(wire: m)
        #expect(event.totals == Fixtures.totals)
        #expect(event.caughtUp)

        m.clearTotals()
        #expect(WatchEvent(wire: m).totals == nil)
    }

    @Test("An export chunk converts from the wire, with and without profile and totals")
    func exportChunk() {
        var m = Workout_V1_ExportChunk()
        m.profile = Fixtures.profileWire
        m.totals = Fixtures.totalsWire
        m.revision = 42
        m.workouts = [Fixtures.workoutWire]
        m.meals = [Fixtures.mealWire]
        m.weights = [Fixtures.weightEntryWire]
        m.steps = [Fixtures.stepsDayWire]
        m.achievements = [Fixtures.achievementWire]
        m.exportedAtMs = 1_764_000_000_777
        let chunk = ExportChunk(wire: m)
        #expect(chunk == ExportChunk(
            profile: Fixtures.profile, totals: Fixtures.totals, revision: 42, workouts: [Fixtures.workout],
            meals: [Fixtures.meal], weights: [Fixtures.weightEntry], steps: [Fixtures.stepsDay],
            achievements: [Fixtures.achievement], exportedAt: Fixtures.date(1_764_000_000_777)
        ))

        m.clearProfile()
        m.clearTotals()
        #expect(ExportChunk(wire: m).profile == nil)
        #expect(ExportChunk(wire: m).totals == nil)
    }

    // MARK: Requests

    @Test("A new member becomes a registration profile with the server's fields unset")
    func newMember() throws {
        var m = Fixtures.profileWire
        m.userID = Data()
        m.role = .unspecified
        m.createdAtMs = 0
        m.revision = 0
        let member = NewMember(wire: m)
        #expect(member == NewMember(
            email: "anna@example.org", firstName: "Anna", lastName: "Petrova", displayName: "Annie", age: 34,
            heightCm: 168.5, weightKg: 61.25, fitnessGoal: .improveEndurance, timeZone: "Europe/Moscow",
            shareWithHousehold: true
        ))
        #expect(try member.wire() == m)
    }

    // MARK: Output-only and optional fields

    @Test("A new record leaves output fields unset, an empty zone means the profile's, and unset stays unset")
    func newRecordOnTheWire() throws {
        // The wire keeps milliseconds, so a new record made "now" is compared on the wire.
        let workout = Workout(type: "yoga", durationSeconds: 600)
        let wire = try workout.wire()
        #expect(wire.timeZone.isEmpty)
        #expect(!wire.hasLocalDay)
        #expect(wire.createdAtMs == 0 && wire.updatedAtMs == 0 && wire.revision == 0)
        #expect(abs(wire.performedAtMs - Date().wireMilliseconds) < 60_000)
        #expect(try Workout(wire: wire).wire() == wire)
        let exact = Workout(type: "yoga", durationSeconds: 600, performedAt: Fixtures.date(1_763_750_000_456))
        #expect(Workout(wire: try exact.wire()) == exact)

        let meal = Meal(mealType: .snack, eatenAt: Fixtures.date(1_763_700_000_321), items: [Fixtures.foodItem, Fixtures.foodItem])
        #expect(meal.totals.calories == 701)
        #expect(!meal.wire.hasLocalDay && meal.wire.timeZone.isEmpty && meal.wire.createdAtMs == 0)
        #expect(Meal(wire: meal.wire) == meal)

        let entry = WeightEntry(weightKg: 70, measuredAt: Fixtures.date(1_763_690_000_999))
        #expect(!entry.wire.hasLocalDay && entry.wire.timeZone.isEmpty && entry.wire.createdAtMs == 0)
        #expect(WeightEntry(wire: entry.wire) == entry)
        #expect(workout.id != meal.id && meal.id != entry.id)
    }

    @Test("Zero means not stated for age, height, weight, servings and unlock time")
    func zeroMeansNotStated() {
        var profile = Fixtures.profileWire
        profile.age = 0
        profile.heightCm = 0
        profile.weightKg = 0
        profile.fitnessGoal = .unspecified
        let value = Profile(wire: profile)
        #expect(value.age == nil && value.heightCm == nil && value.weightKg == nil && value.fitnessGoal == nil)

        var item = Fixtures.foodItemWire
        item.servings = 0
        #expect(FoodItem(wire: item).servings == nil)
        #expect(FoodItem(wire: item).wire == item)

        var locked = Fixtures.achievementWire
        locked.unlocked = false
        locked.unlockedAtMs = 0
        #expect(Achievement(wire: locked).unlockedAt == nil)

        var invite = Fixtures.inviteWire
        invite.state = .active
        invite.usedAtMs = 0
        invite.usedBy = Data()
        #expect(Invite(wire: invite).usedAt == nil && Invite(wire: invite).usedBy == nil)
    }

    @Test("Totals without a last workout day, unset or 0/0/0, have none")
    func totalsWithoutLastDay() {
        var m = Fixtures.totalsWire
        m.clearLastWorkoutDay()
        #expect(Totals(wire: m).lastWorkoutDay == nil)
        m.lastWorkoutDay = Workout_V1_LocalDate()
        #expect(Totals(wire: m).lastWorkoutDay == nil)
    }

    @Test("Malformed ids become the all-zero UUID; empty optional ids become nil")
    func malformedIDs() {
        var m = Fixtures.workoutWire
        m.id = Data([1, 2, 3])
        #expect(Workout(wire: m).id == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
        m.id = Data()
        #expect(Workout(wire: m).id == UUID.wireInvalid)
        #expect(UUID(wireBytesUnlessEmpty: Data()) == nil)
        #expect(UUID(wireBytesUnlessEmpty: Data(count: 17)) == UUID.wireInvalid)
        #expect(UUID(wireBytes: Fixtures.idBytes(0xF8)) == Fixtures.uuid(0xF8))
        #expect(Fixtures.uuid(0xF8).wireBytes == Fixtures.idBytes(0xF8))
        // A sliced Data (non-zero start index) converts too.
        let sliced = (Data([0xEE]) + Fixtures.idBytes(0x01)).dropFirst()
        #expect(UUID(wireBytes: sliced) == Fixtures.uuid(0x01))
    }

    @Test("A malformed day where one is required is clamped into a real date")
    func clampedDays() {
        #expect(LocalDate(clampingWire: Fixtures.day(2026, 2, 30)) == Fixtures.localDate(2026, 2, 28))
        #expect(LocalDate(clampingWire: Fixtures.day(2026, 13, 0)) == Fixtures.localDate(2026, 12, 1))
        #expect(LocalDate(clampingWire: Workout_V1_LocalDate()) == Fixtures.localDate(0, 1, 1))
        #expect(LocalDate(wire: Fixtures.day(2026, 2, 30)) == nil)
        #expect(LocalDate(wire: Workout_V1_LocalDate()) == nil)
    }
}
