public import Foundation
import WorkoutProtocol

extension WorkoutClient {
    /// The goals in effect today, with their history.
    ///
    /// - Parameter member: Whose goals: `nil` for one's own; an admin may name a member under 18.
    /// - Returns: The goals, their history, and whether the rules for children apply.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED` for another member's goals unless the caller
    ///   is an admin and the member under 18; `NOT_FOUND` for an unknown member.
    public func goals(of member: UUID? = nil) async throws(WorkoutError) -> MemberGoals {
        var request = Workout_V1_GetGoalsRequest()
        if let member { request.memberID = member.wireBytes }
        return MemberGoals(wire: try await call(MethodCatalog.getGoals, request, idempotent: true))
    }

    /// Sets the goals `goals` has and clears those in `clearing`, from a day on; the others stay.
    ///
    /// A retry after a lost answer is safe: the second call finds the goals already so and
    /// answers ``GoalsChange/unchanged``.
    ///
    /// - Parameters:
    ///   - goals: The goals to set (only those that are not `nil`).
    ///   - clearing: The goals to remove; none may also be in `goals`.
    ///   - day: The first day the change applies to: `nil` for today in the member's zone, or a
    ///     past day back to the newest change's day (at most 400 days back).
    ///   - member: Whose goals: `nil` for one's own; an admin may name a member under 18.
    /// - Returns: The entry now in effect from `day`, or that nothing changed.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the field for a goal out of bounds, a
    ///   share of energy without an energy target, a child's energy target below their
    ///   maintenance estimate, or a day out of range; `PERMISSION_DENIED` for a child's target
    ///   weight not set by an admin, or another member's goals.
    public func setGoals(
        _ goals: Goals, clearing: Set<GoalKind> = [], from day: LocalDate? = nil, for member: UUID? = nil
    ) async throws(WorkoutError) -> GoalsChange {
        var request = Workout_V1_SetGoalsRequest()
        request.set = try goals.wire()
        request.clear = GoalKind.allCases.filter(clearing.contains).map(\.wire)
        if let day { request.effectiveFrom = day.wire }
        if let member { request.memberID = member.wireBytes }
        return GoalsChange(wire: try await call(MethodCatalog.setGoals, request, idempotent: true))
    }

    /// A day's progress towards one's goals, its ISO week's, and the weight trend up to it.
    ///
    /// - Parameter day: The day (its week runs Monday to Sunday).
    /// - Returns: The day's and the week's figures, each judged by the goals of its own day.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` for a day outside 2000–2100.
    public func progress(on day: LocalDate) async throws(WorkoutError) -> GoalsProgress {
        var request = Workout_V1_ProgressRequest()
        request.day = day.wire
        return GoalsProgress(wire: try await call(MethodCatalog.progress, request, idempotent: true))
    }
}
