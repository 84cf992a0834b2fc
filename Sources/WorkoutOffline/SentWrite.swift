public import WorkoutClient

/// The server's answer to a ``PendingWrite`` it accepted, one case per kind of write.
public enum SentWrite: Sendable, Hashable, Codable {
    /// The answer to a workout log.
    case loggedWorkout(LoggedWorkout)
    /// The answer to a workout update.
    case updatedWorkout(UpdatedWorkout)
    /// The answer to a workout delete.
    case deletedWorkout(DeletedWorkout)
    /// The answer to a meal log.
    case loggedMeal(LoggedMeal)
    /// The answer to a meal update.
    case updatedMeal(UpdatedMeal)
    /// The answer to a meal delete.
    case deletedMeal(DeletedMeal)
    /// The answer to a weigh-in log.
    case loggedWeight(LoggedWeight)
    /// The answer to a weigh-in update.
    case updatedWeight(UpdatedWeight)
    /// The answer to a weigh-in delete.
    case deletedWeight(DeletedWeight)
    /// The day after a steps report.
    case reportedSteps(StepsUpdate)

    /// Whether the server had applied this write before (a log sent again after its answer was
    /// lost: nothing was applied twice). Updates, deletes and steps reports are idempotent
    /// without saying so, and answer `false`.
    public var replayed: Bool {
        switch self {
        case .loggedWorkout(let logged): logged.replayed
        case .loggedMeal(let logged): logged.replayed
        case .loggedWeight(let logged): logged.replayed
        default: false
        }
    }
}
