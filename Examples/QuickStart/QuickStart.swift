// An app's first use of WorkoutClient, as the library's documentation shows it: sign in, log a
// workout and a meal, read today's meals (the member's today) and recent workouts, and watch
// until the live stream has caught up. It imports WorkoutClient alone, as an app outside this
// package does; the test suite builds it and runs it against a real `workoutd`.
//
//     workout-quickstart --server homeserver.local:7420 --email anna@example.com [--fingerprint BDKF-BXMF-…]
//     workout-quickstart --server 127.0.0.1:7420 --email anna@example.com --plain   # a server on this machine
//
// The password is read from standard input.

import Foundation
import WorkoutClient

@main
struct QuickStart {
    static func main() async {
        do throws(WorkoutError) {
            let options = try Options(CommandLine.arguments.dropFirst())
            try await run(options)
        } catch {
            FileHandle.standardError.write(Data("workout-quickstart: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: Options) async throws(WorkoutError) {
        let client = WorkoutClient(
            configuration: .init(
                address: options.server, deviceName: "QuickStart",
                transportSecurity: options.plain ? .plainTCP() : .tls),
            trust: ServerTrust(expectedFingerprint: options.fingerprint))
        defer { client.close() }

        // Sign in: the answer carries the profile, the totals and the revision.
        let signedIn = try await client.login(email: options.email, password: options.password)
        print("Signed in as \(signedIn.profile.firstName) (\(signedIn.profile.email))")

        // Log: the client makes the record's id, so a retried call is applied once.
        let logged = try await client.logWorkout(Workout(type: "running", durationSeconds: 30 * 60, caloriesBurned: 280))
        print("Logged a run: \(logged.totals.totalWorkouts) workouts, \(logged.totals.points) points, level \(logged.totals.level)")
        let lunch = try await client.logMeal(Meal(
            mealType: .lunch, eatenAt: Date(), name: "Soup",
            items: [FoodItem(name: "lentil soup", calories: 320, proteinG: 18), FoodItem(name: "bread", calories: 150)]))
        print("Logged lunch: \(Int(lunch.meal.totals.calories)) kcal")

        // Query: "today" is the member's day, in their profile's time zone.
        let today = try await client.mealsOfDay(signedIn.profile.today())
        print("Today (\(signedIn.profile.today())): \(today.meals.count) meals, \(Int(today.totals.calories)) kcal")
        let recent = try await client.workoutHistory(pageSize: 10)
        print("Recent workouts: \(recent.items.map(\.type).joined(separator: ", "))")

        // Watch: the changes since the sign-in, then live; stop once caught up.
        for try await event in client.watch(since: signedIn.revision) {
            print("Watch: \(event.changes.count) changes up to revision \(event.revision)")
            if event.caughtUp { break }
        }

        // Errors are WorkoutError, naming the Swift API's fields.
        do throws(WorkoutError) {
            _ = try await client.logWorkout(Workout(type: "running", durationSeconds: 0))
        } catch {
            print("Refused as expected: \(error.code) on \(error.field ?? "?")")
        }
    }
}

/// The command line: `--server HOST[:PORT] --email EMAIL [--fingerprint FP] [--plain]`, the
/// password on standard input.
struct Options {
    var server: ServerAddress
    var email: String
    var password: String
    var fingerprint: ServerFingerprint?
    var plain = false

    init(_ arguments: ArraySlice<String>) throws(WorkoutError) {
        var server: ServerAddress?
        var email: String?
        var arguments = arguments
        while let argument = arguments.popFirst() {
            switch argument {
            case "--server": server = arguments.popFirst().flatMap(ServerAddress.init)
            case "--email": email = arguments.popFirst()
            case "--fingerprint": fingerprint = arguments.popFirst().flatMap(ServerFingerprint.init)
            case "--plain": plain = true
            default: throw WorkoutError(code: .invalidArgument, message: "unknown argument \(argument)")
            }
        }
        guard let server, let email else {
            throw WorkoutError(code: .invalidArgument, message: "usage: workout-quickstart --server HOST[:PORT] --email EMAIL [--fingerprint FP] [--plain] < password")
        }
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw WorkoutError(code: .invalidArgument, message: "give the password on standard input")
        }
        self.server = server
        self.email = email
        self.password = password
    }
}
