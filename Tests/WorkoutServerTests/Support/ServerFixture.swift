import Foundation
import Logging
import ServerTestSupport
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutServer

/// Waits until `condition` holds, polling every 10 ms for at most `seconds`.
///
/// - Returns: whether it held in time.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

extension WorkoutServer {
    /// The connections the server has open now.
    var openConnections: Int { Int(statistics.snapshot().openConnections) }
}

extension TestConnection {
    /// A connection that has done the handshake and logged in as the owner.
    static func owner(port: Int, acceptsCompressed: Bool = true, maxFrameSize: UInt32 = 0, source: String? = nil) throws -> TestConnection {
        try login(port: port, email: ownerEmail, password: ownerPassword, acceptsCompressed: acceptsCompressed, maxFrameSize: maxFrameSize, source: source)
    }

    /// A connection that has done the handshake and logged in.
    static func login(port: Int, email: String, password: String, acceptsCompressed: Bool = true, maxFrameSize: UInt32 = 0, source: String? = nil) throws -> TestConnection {
        let connection = try TestConnection(port: port, source: source)
        try connection.handshake(acceptsCompressed: acceptsCompressed, maxFrameSize: maxFrameSize)
        var login = Workout_V1_LoginRequest()
        login.email = email
        login.password = password
        _ = try connection.call(MethodCatalog.login, login)
        return connection
    }

    /// A new member joins over the wire: `admin` makes an invite, a new connection registers
    /// with it and keeps the session.
    static func member(port: Int, invitedBy admin: TestConnection, email: String, password: String = "member password 1") throws -> (TestConnection, Workout_V1_RegisterResponse) {
        var invite = Workout_V1_CreateInviteRequest()
        invite.role = .member
        let code = try admin.call(MethodCatalog.createInvite, invite).code
        let connection = try TestConnection(port: port)
        try connection.handshake()
        let registered = try connection.call(MethodCatalog.register, registerRequest(code: code, email: email, password: password))
        return (connection, registered)
    }
}

/// A registration with the required profile fields.
func registerRequest(code: String, email: String, password: String) -> Workout_V1_RegisterRequest {
    var register = Workout_V1_RegisterRequest()
    register.inviteCode = code
    register.profile.email = email
    register.profile.firstName = "Mia"
    register.profile.timeZone = "Europe/Berlin"
    register.profile.shareWithHousehold = true
    register.password = password
    register.deviceName = "test phone"
    return register
}

// MARK: Records

/// A fresh record id: 16 random bytes.
func newID() -> Data {
    withUnsafeBytes(of: UUID().uuid) { Data($0) }
}

/// Now, in milliseconds since the epoch.
func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

/// A valid workout an hour ago.
func workout(id: Data = newID(), type: String = "run", at time: Int64 = nowMilliseconds() - 3_600_000) -> Workout_V1_Workout {
    var workout = Workout_V1_Workout()
    workout.id = id
    workout.workoutType = type
    workout.durationSeconds = 1_800
    workout.caloriesBurned = 300
    workout.performedAtMs = time
    return workout
}

/// A valid meal with `items` food items.
func meal(id: Data = newID(), items: Int = 3, at time: Int64 = nowMilliseconds() - 3_600_000, timeZone: String = "UTC") -> Workout_V1_Meal {
    var meal = Workout_V1_Meal()
    meal.id = id
    meal.mealType = .lunch
    meal.eatenAtMs = time
    meal.timeZone = timeZone
    meal.name = "lunch"
    meal.items = (0..<items).map { index in
        var item = Workout_V1_FoodItem()
        item.name = "food item number \(index) with a longish name"
        item.calories = 100 + Double(index)
        item.proteinG = 10
        item.carbsG = 20
        item.fatG = 5
        return item
    }
    return meal
}

/// A valid weight entry.
func weightEntry(id: Data = newID(), kilograms: Double = 70, at time: Int64 = nowMilliseconds() - 3_600_000) -> Workout_V1_WeightEntry {
    var entry = Workout_V1_WeightEntry()
    entry.id = id
    entry.weightKg = kilograms
    entry.measuredAtMs = time
    return entry
}

/// A LogWeight request.
func logWeight(_ entry: Workout_V1_WeightEntry) -> Workout_V1_LogWeightRequest {
    var request = Workout_V1_LogWeightRequest()
    request.entry = entry
    return request
}

/// Today's date in UTC as a LocalDate.
func todayUTC(offsetDays: Int = 0) -> Workout_V1_LocalDate {
    today(in: "UTC", offsetDays: offsetDays)
}

/// Today's date in `zone` as a LocalDate: a member's today (the fixture's members live in
/// Europe/Berlin, whose today is UTC's tomorrow from 23:00 UTC in winter).
func today(in zone: String, offsetDays: Int = 0) -> Workout_V1_LocalDate {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    let parts = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(Double(offsetDays) * 86_400))
    var date = Workout_V1_LocalDate()
    date.year = Int32(parts.year!)
    date.month = Int32(parts.month!)
    date.day = Int32(parts.day!)
    return date
}

/// The UTC day of a time in milliseconds.
func utcDay(of milliseconds: Int64) -> Workout_V1_LocalDate {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    var date = Workout_V1_LocalDate()
    date.year = Int32(parts.year!)
    date.month = Int32(parts.month!)
    date.day = Int32(parts.day!)
    return date
}

/// Keeps the store's single writer busy for `seconds`, so that every write submitted
/// meanwhile stays in flight; returns once the stall has begun.
///
/// - Returns: a semaphore signalled when the stall is over.
@discardableResult
func stallWriter(_ household: HouseholdStore, for seconds: Double) -> DispatchSemaphore {
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    household.store.writer.submit({ _ in
        started.signal()
        usleep(UInt32(seconds * 1_000_000))
    }, completion: { _ in finished.signal() })
    started.wait()
    return finished
}
