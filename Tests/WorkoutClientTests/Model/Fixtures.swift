import Foundation
@testable import WorkoutClient
import WorkoutProtocol

/// Wire messages with a non-default value in every field, each beside the Swift value it
/// must convert to, so that the tests check both directions and catch swapped fields.
enum Fixtures {
    /// A UUID whose 16 bytes are `first, first + 1, ...`.
    static func uuid(_ first: UInt8) -> UUID {
        UUID(uuid: (first, first &+ 1, first &+ 2, first &+ 3, first &+ 4, first &+ 5, first &+ 6, first &+ 7,
                    first &+ 8, first &+ 9, first &+ 10, first &+ 11, first &+ 12, first &+ 13, first &+ 14, first &+ 15))
    }

    /// The 16 bytes of ``uuid(_:)``.
    static func idBytes(_ first: UInt8) -> Data {
        Data((0..<16).map { first &+ UInt8($0) })
    }

    /// The instant of a wire timestamp (the conversion itself is tested in DateWireTests).
    static func date(_ milliseconds: Int64) -> Date {
        Date(wireMilliseconds: milliseconds)
    }

    static func day(_ year: Int32, _ month: Int32, _ day: Int32) -> Workout_V1_LocalDate {
        var message = Workout_V1_LocalDate()
        message.year = year
        message.month = month
        message.day = day
        return message
    }

    static func localDate(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        LocalDate(year: year, month: month, day: day)!
    }

    // MARK: Records

    static var profileWire: Workout_V1_Profile {
        var m = Workout_V1_Profile()
        m.userID = idBytes(0x10)
        m.email = "anna@example.org"
        m.firstName = "Anna"
        m.lastName = "Petrova"
        m.displayName = "Annie"
        m.age = 34
        m.heightCm = 168.5
        m.weightKg = 61.25
        m.fitnessGoal = .improveEndurance
        m.timeZone = "Europe/Moscow"
        m.shareWithHousehold = true
        m.role = .owner
        m.createdAtMs = 1_764_000_000_123
        m.revision = 41
        return m
    }

    static var profile: Profile {
        Profile(
            id: uuid(0x10), email: "anna@example.org", firstName: "Anna", lastName: "Petrova", displayName: "Annie",
            age: 34, heightCm: 168.5, weightKg: 61.25, fitnessGoal: .improveEndurance, timeZone: "Europe/Moscow",
            shareWithHousehold: true, role: .owner, createdAt: date(1_764_000_000_123), revision: 41
        )
    }

    static var totalsWire: Workout_V1_Totals {
        var m = Workout_V1_Totals()
        m.totalWorkouts = 12
        m.totalCaloriesBurned = 4321.5
        m.points = 1_650
        m.level = 2
        m.currentStreakDays = 3
        m.longestStreakDays = 7
        m.lastWorkoutDay = day(2026, 11, 21)
        m.totalActiveSeconds = 43_200
        m.achievementsUnlocked = 4
        return m
    }

    static var totals: Totals {
        Totals(
            totalWorkouts: 12, totalCaloriesBurned: 4321.5, points: 1_650, level: 2, currentStreakDays: 3,
            longestStreakDays: 7, lastWorkoutDay: localDate(2026, 11, 21), totalActiveSeconds: 43_200,
            achievementsUnlocked: 4
        )
    }

    static var workoutWire: Workout_V1_Workout {
        var m = Workout_V1_Workout()
        m.id = idBytes(0x20)
        m.workoutType = "running"
        m.durationSeconds = 1_800
        m.caloriesBurned = 310.5
        m.exercisesCompleted = 3
        m.performedAtMs = 1_763_750_000_456
        m.timeZone = "Europe/Berlin"
        m.localDay = day(2026, 11, 21)
        m.notes = "easy 5k"
        m.revision = 38
        m.createdAtMs = 1_763_751_000_789
        m.updatedAtMs = 1_763_752_000_012
        return m
    }

    static var workout: Workout {
        Workout(
            id: uuid(0x20), type: "running", durationSeconds: 1_800, caloriesBurned: 310.5, exercisesCompleted: 3,
            performedAt: date(1_763_750_000_456), timeZone: "Europe/Berlin", notes: "easy 5k",
            localDay: localDate(2026, 11, 21), revision: 38, createdAt: date(1_763_751_000_789),
            updatedAt: date(1_763_752_000_012)
        )
    }

    static var foodItemWire: Workout_V1_FoodItem {
        var m = Workout_V1_FoodItem()
        m.name = "Oatmeal with berries"
        m.calories = 350.5
        m.proteinG = 12.25
        m.carbsG = 60.75
        m.fatG = 7.5
        m.servings = 1.5
        return m
    }

    static var foodItem: FoodItem {
        FoodItem(name: "Oatmeal with berries", calories: 350.5, proteinG: 12.25, carbsG: 60.75, fatG: 7.5, servings: 1.5)
    }

    static var nutritionTotalsWire: Workout_V1_NutritionTotals {
        var m = Workout_V1_NutritionTotals()
        m.calories = 700.25
        m.proteinG = 30.5
        m.carbsG = 80.75
        m.fatG = 20.125
        return m
    }

    static var nutritionTotals: NutritionTotals {
        NutritionTotals(calories: 700.25, proteinG: 30.5, carbsG: 80.75, fatG: 20.125)
    }

    static var mealWire: Workout_V1_Meal {
        var second = foodItemWire
        second.name = "Coffee"
        second.servings = 2
        var m = Workout_V1_Meal()
        m.id = idBytes(0x30)
        m.mealType = .breakfast
        m.eatenAtMs = 1_763_700_000_321
        m.timeZone = "Asia/Tokyo"
        m.localDay = day(2026, 11, 21)
        m.name = "Sunday breakfast"
        m.items = [foodItemWire, second]
        m.totals = nutritionTotalsWire
        m.revision = 37
        m.createdAtMs = 1_763_700_100_111
        m.updatedAtMs = 1_763_700_200_222
        return m
    }

    static var meal: Meal {
        var second = foodItem
        second.name = "Coffee"
        second.servings = 2
        return Meal(
            id: uuid(0x30), mealType: .breakfast, eatenAt: date(1_763_700_000_321), timeZone: "Asia/Tokyo",
            name: "Sunday breakfast", items: [foodItem, second], totals: nutritionTotals,
            localDay: localDate(2026, 11, 21), revision: 37, createdAt: date(1_763_700_100_111),
            updatedAt: date(1_763_700_200_222)
        )
    }

    static var weightEntryWire: Workout_V1_WeightEntry {
        var m = Workout_V1_WeightEntry()
        m.id = idBytes(0x40)
        m.weightKg = 61.4
        m.measuredAtMs = 1_763_690_000_999
        m.timeZone = "America/New_York"
        m.localDay = day(2026, 11, 20)
        m.note = "after run"
        m.revision = 36
        m.createdAtMs = 1_763_690_001_001
        return m
    }

    static var weightEntry: WeightEntry {
        WeightEntry(
            id: uuid(0x40), weightKg: 61.4, measuredAt: date(1_763_690_000_999), timeZone: "America/New_York",
            note: "after run", localDay: localDate(2026, 11, 20), revision: 36, createdAt: date(1_763_690_001_001)
        )
    }

    static var stepsReportWire: Workout_V1_StepsReport {
        var m = Workout_V1_StepsReport()
        m.day = day(2026, 11, 21)
        m.source = "watch"
        m.steps = 10_234
        m.reportedAtMs = 1_763_760_000_555
        m.revision = 39
        return m
    }

    static var stepsReport: StepsReport {
        StepsReport(day: localDate(2026, 11, 21), source: "watch", steps: 10_234, reportedAt: date(1_763_760_000_555), revision: 39)
    }

    static var stepsDayWire: Workout_V1_StepsDay {
        var phone = stepsReportWire
        phone.source = "phone"
        phone.steps = 9_876
        phone.revision = 35
        var m = Workout_V1_StepsDay()
        m.day = day(2026, 11, 21)
        m.steps = 10_234
        m.sources = [phone, stepsReportWire]
        m.revision = 39
        return m
    }

    static var stepsDay: StepsDay {
        var phone = stepsReport
        phone.source = "phone"
        phone.steps = 9_876
        phone.revision = 35
        return StepsDay(day: localDate(2026, 11, 21), steps: 10_234, sources: [phone, stepsReport], revision: 39)
    }

    static var achievementWire: Workout_V1_Achievement {
        var m = Workout_V1_Achievement()
        m.achievementID = "workout_10"
        m.title = "Ten workouts"
        m.description_p = "Complete 10 workouts"
        m.points = 100
        m.unlocked = true
        m.unlockedAtMs = 1_763_750_000_457
        m.progress = 12
        m.target = 10
        return m
    }

    static var achievement: Achievement {
        Achievement(
            id: "workout_10", title: "Ten workouts", details: "Complete 10 workouts", points: 100, unlocked: true,
            unlockedAt: date(1_763_750_000_457), progress: 12, target: 10
        )
    }

    // MARK: Auth and admin

    static var sessionInfoWire: Workout_V1_SessionInfo {
        var m = Workout_V1_SessionInfo()
        m.sessionID = idBytes(0x50)
        m.deviceName = "Anna's iPhone"
        m.clientAgent = "WorkoutApp/1.2"
        m.createdAtMs = 1_763_000_000_001
        m.lastUsedAtMs = 1_763_800_000_002
        m.expiresAtMs = 1_766_000_000_003
        m.current = true
        return m
    }

    static var sessionInfo: SessionInfo {
        SessionInfo(
            id: uuid(0x50), deviceName: "Anna's iPhone", clientAgent: "WorkoutApp/1.2", createdAt: date(1_763_000_000_001),
            lastUsedAt: date(1_763_800_000_002), expiresAt: date(1_766_000_000_003), isCurrent: true
        )
    }

    static var inviteWire: Workout_V1_Invite {
        var m = Workout_V1_Invite()
        m.inviteID = idBytes(0x60)
        m.role = .admin
        m.note = "for Masha"
        m.createdBy = idBytes(0x10)
        m.createdAtMs = 1_763_100_000_004
        m.expiresAtMs = 1_763_704_800_004
        m.state = .used
        m.usedAtMs = 1_763_200_000_005
        m.usedBy = idBytes(0x70)
        return m
    }

    static var invite: Invite {
        Invite(
            id: uuid(0x60), role: .admin, note: "for Masha", createdBy: uuid(0x10), createdAt: date(1_763_100_000_004),
            expiresAt: date(1_763_704_800_004), state: .used, usedAt: date(1_763_200_000_005), usedBy: uuid(0x70)
        )
    }

    static var memberInfoWire: Workout_V1_MemberInfo {
        var m = Workout_V1_MemberInfo()
        m.userID = idBytes(0x70)
        m.email = "masha@example.org"
        m.firstName = "Masha"
        m.lastName = "Ivanova"
        m.role = .admin
        m.createdAtMs = 1_763_200_000_005
        m.lastSeenAtMs = 1_763_900_000_006
        m.activeSessions = 2
        m.shareWithHousehold = true
        return m
    }

    static var memberInfo: MemberInfo {
        MemberInfo(
            id: uuid(0x70), email: "masha@example.org", firstName: "Masha", lastName: "Ivanova", role: .admin,
            createdAt: date(1_763_200_000_005), lastSeenAt: date(1_763_900_000_006), activeSessions: 2,
            shareWithHousehold: true
        )
    }

    static var householdMemberWire: Workout_V1_HouseholdMember {
        var m = Workout_V1_HouseholdMember()
        m.userID = idBytes(0x70)
        m.displayName = "Masha"
        m.level = 3
        m.points = 2_450
        m.currentStreakDays = 5
        m.longestStreakDays = 9
        m.totalWorkouts = 40
        m.isYou = true
        return m
    }

    static var householdMember: HouseholdMember {
        HouseholdMember(
            id: uuid(0x70), displayName: "Masha", level: 3, points: 2_450, currentStreakDays: 5, longestStreakDays: 9,
            totalWorkouts: 40, isYou: true
        )
    }

    static var latencyWire: Workout_V1_LatencySummary {
        var m = Workout_V1_LatencySummary()
        m.p50Us = 120
        m.p90Us = 340
        m.p99Us = 910
        m.p999Us = 2_500
        m.maxUs = 7_000
        return m
    }

    static var latency: LatencySummary {
        LatencySummary(p50Microseconds: 120, p90Microseconds: 340, p99Microseconds: 910, p999Microseconds: 2_500, maxMicroseconds: 7_000)
    }

    static var methodStatsWire: Workout_V1_MethodStats {
        func count(_ code: Workout_V1_StatusCode, _ count: UInt64) -> Workout_V1_StatusCount {
            var entry = Workout_V1_StatusCount()
            entry.code = code
            entry.count = count
            return entry
        }
        var m = Workout_V1_MethodStats()
        m.method = 301
        m.name = "Logging.LogWorkout"
        m.calls = 57
        m.statuses = [count(.ok, 50), count(.invalidArgument, 4), count(.alreadyExists, 2), count(.UNRECOGNIZED(42), 1)]
        m.latency = latencyWire
        return m
    }

    static var methodStats: MethodStats {
        MethodStats(
            method: 301, name: "Logging.LogWorkout", calls: 57,
            statuses: ["OK": 50, "INVALID_ARGUMENT": 4, "ALREADY_EXISTS": 2, "UNKNOWN(42)": 1], latency: latency
        )
    }

    static var statsWire: Workout_V1_StatsResponse {
        var other = methodStatsWire
        other.method = 101
        other.name = "Auth.Login"
        var m = Workout_V1_StatsResponse()
        m.uptimeMs = 86_400_123
        m.openConnections = 3
        m.acceptedConnections = 120
        m.rejectedConnections = 2
        m.authenticatedConnections = 2
        m.methods = [other, methodStatsWire]
        m.storeSizeBytes = 1 << 30
        m.storeUsedBytes = 5_242_880
        m.commits = 900
        m.writeOperations = 1_350
        m.operationsPerCommit = 1.5
        m.members = 4
        m.serverTimeMs = 1_764_000_000_999
        return m
    }

    static var healthWire: Workout_V1_HealthResponse {
        var m = Workout_V1_HealthResponse()
        m.serving = true
        m.serverAgent = "workoutd"
        m.serverVersion = "1.0.0"
        m.serverTimeMs = 1_764_000_000_998
        m.uptimeMs = 3_600_001
        return m
    }

    static var catalogWire: Workout_V1_DescribeCatalogResponse {
        var login = Workout_V1_MethodDescriptor()
        login.number = 101
        login.name = "Auth.Login"
        login.requestType = "workout.v1.LoginRequest"
        login.responseType = "workout.v1.LoginResponse"
        login.serverStreaming = true
        login.needsSession = true
        login.adminOnly = true
        login.summary = "Log in with email and password"
        var m = Workout_V1_DescribeCatalogResponse()
        m.methods = [login]
        m.protocolVersion = 1
        return m
    }

    // MARK: Changes

    static func change(_ item: Workout_V1_Change.OneOf_Item?, revision: UInt64 = 42) -> Workout_V1_Change {
        var m = Workout_V1_Change()
        m.revision = revision
        m.changedAtMs = 1_763_750_001_234
        m.item = item
        return m
    }

    static var tombstoneWire: Workout_V1_Tombstone {
        var m = Workout_V1_Tombstone()
        m.kind = .meal
        m.id = idBytes(0x30)
        return m
    }

    static var changesWire: Workout_V1_ChangesResponse {
        var m = Workout_V1_ChangesResponse()
        m.changes = [change(.workout(workoutWire), revision: 38), change(.deleted(tombstoneWire), revision: 39)]
        m.revision = 39
        m.hasMore_p = true
        m.totals = totalsWire
        return m
    }

    static var sessionToken: SessionToken {
        SessionToken(base64: Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString())!
    }
}
