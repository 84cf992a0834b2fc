/// What a run asks the server, as `--scenario` names it.
package enum Scenario: String, CaseIterable, Sendable, Hashable {
    /// Logging.LogWeight: a durable write of one record and its time index.
    case logWeight = "log-weight"
    /// Logging.LogWorkout: the full workout transaction (day figures, totals, streak, achievements).
    case logWorkout = "log-workout"
    /// Queries.MealsOfDay: one member's meals (with their items) of one random preloaded day.
    case mealsDay = "meals-day"
    /// Queries.WorkoutHistory: the newest page of 20 workouts.
    case history
    /// What a phone app does when opened: connect, resume the session, read the profile,
    /// today's meals and the last workouts, then log a meal, a weight and the day's steps.
    case household
    /// Connection churn: connect, handshake, log in (or resume), close.
    case connect
    /// Goals.Progress: a random preloaded day's and its week's progress and the weight trend.
    case progress
    /// Foods.SearchFoods: a three-letter word prefix over a library of 5,000 foods.
    case foodSearch = "food-search"

    /// One line on what the scenario measures, for `--help` and the report.
    package var summary: String {
        switch self {
        case .logWeight: "Logging.LogWeight, a durable indexed write"
        case .logWorkout: "Logging.LogWorkout, the workout transaction (totals, streak, achievements)"
        case .mealsDay: "Queries.MealsOfDay of a random preloaded day (full records)"
        case .history: "Queries.WorkoutHistory, newest page of 20"
        case .household: "an app opening: resume, profile, today's meals, last workouts, then 3 logs"
        case .connect: "connect + handshake + log in (or resume) + close"
        case .progress: "Goals.Progress of a random preloaded day (its week, the weight trend)"
        case .foodSearch: "Foods.SearchFoods, a word prefix over 5,000 foods"
        }
    }

    /// Whether each connection keeps a fixed number of calls in flight on one long-lived
    /// connection (the request scenarios), rather than running a script of its own
    /// (`household`, `connect`).
    package var isRequestLoop: Bool {
        switch self {
        case .logWeight, .logWorkout, .mealsDay, .history, .progress, .foodSearch: true
        case .household, .connect: false
        }
    }
}

/// How the `connect` scenario authenticates each new connection.
package enum ConnectAuthentication: String, CaseIterable, Sendable, Hashable {
    /// Auth.Login with email and password: a new session and a scrypt verification each time.
    case login
    /// Auth.Resume with a session token, as an app does when it reopens.
    case resume
}
