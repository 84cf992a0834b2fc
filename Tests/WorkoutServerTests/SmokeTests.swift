import ServerTestSupport
import TestSupport
import Foundation
import Testing
import WorkoutProtocol
import WorkoutServer

@Suite("Server smoke tests")
struct SmokeTests {
    @Test("A client does the handshake, checks health, logs in and logs a workout over a real socket")
    func basicFlow() async throws {
        try await withServer { _, _, port in
            let connection = try TestConnection(port: port)
            try connection.handshake()
            #expect(connection.serverHello?.version == 1)
            let health = try connection.call(MethodCatalog.health, Workout_V1_HealthRequest())
            #expect(health.serving)
            let unauthenticated = #expect(throws: TestConnection.Failure.self) {
                _ = try connection.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest())
            }
            #expect(unauthenticated?.status == .unauthenticated)
            var login = Workout_V1_LoginRequest()
            login.email = ownerEmail
            login.password = ownerPassword
            let session = try connection.call(MethodCatalog.login, login)
            #expect(session.sessionToken.count == 32)
            var workout = Workout_V1_LogWorkoutRequest()
            workout.workout.id = Data(UUID().uuidString.utf8.prefix(16))
            workout.workout.workoutType = "run"
            workout.workout.durationSeconds = 1_800
            workout.workout.caloriesBurned = 300
            workout.workout.performedAtMs = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
            let logged = try connection.call(MethodCatalog.logWorkout, workout)
            #expect(logged.totals.points == 150)
            #expect(logged.unlocked.map(\.achievementID) == ["workout_1"])
            let history = try connection.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest())
            #expect(history.workouts.count == 1)
        }
    }
}
