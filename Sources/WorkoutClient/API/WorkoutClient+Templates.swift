public import Foundation
import WorkoutProtocol

extension WorkoutClient {
    /// Saves a template: a new one, or a replacement of the template with its id. Items from
    /// library foods are saved as copies of the food's figures.
    ///
    /// - Parameter template: The template.
    /// - Returns: The stored template.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the field; `ALREADY_EXISTS` for a name
    ///   another template of the member's has; `RESOURCE_EXHAUSTED` past 200 templates.
    public func saveTemplate(_ template: Template) async throws(WorkoutError) -> Template {
        var request = Workout_V1_SaveTemplateRequest()
        request.template = try template.wire()
        return Template(wire: try await call(MethodCatalog.saveTemplate, request, idempotent: true).template)
    }

    /// The member's templates, by name.
    ///
    /// - Throws: ``WorkoutError``.
    public func templates() async throws(WorkoutError) -> [Template] {
        try await call(MethodCatalog.listTemplates, Workout_V1_ListTemplatesRequest(), idempotent: true).templates.map(Template.init(wire:))
    }

    /// Deletes one of the member's templates.
    ///
    /// - Returns: Whether there was such a template.
    /// - Throws: ``WorkoutError``.
    public func deleteTemplate(_ id: UUID) async throws(WorkoutError) -> Bool {
        var request = Workout_V1_DeleteTemplateRequest()
        request.id = id.wireBytes
        return try await call(MethodCatalog.deleteTemplate, request, idempotent: true).deleted
    }

    /// Logs a template in one call. Safe to retry with the same `recordID`: one record is stored.
    ///
    /// - Parameters:
    ///   - id: The template.
    ///   - at: When (now when `nil`).
    ///   - recordID: The new record's id.
    /// - Returns: The meal or workout logged, as LogMeal or LogWorkout answers it.
    /// - Throws: ``WorkoutError``: `NOT_FOUND` for a template the member does not have.
    public func logTemplate(_ id: UUID, at: Date? = nil, recordID: UUID = .timeOrdered()) async throws(WorkoutError) -> LoggedFromTemplate {
        var request = Workout_V1_LogTemplateRequest()
        request.templateID = id.wireBytes
        return try await logAgain(request, at: at, recordID: recordID)
    }

    /// Logs a copy of one of the member's meals ("yesterday's lunch") in one call.
    ///
    /// - Parameters:
    ///   - id: The meal to copy.
    ///   - at: When (now when `nil`).
    ///   - recordID: The new meal's id.
    /// - Throws: ``WorkoutError``: `NOT_FOUND` for a meal the member does not have.
    public func copyMeal(_ id: UUID, at: Date? = nil, recordID: UUID = .timeOrdered()) async throws(WorkoutError) -> LoggedFromTemplate {
        var request = Workout_V1_LogTemplateRequest()
        request.mealID = id.wireBytes
        return try await logAgain(request, at: at, recordID: recordID)
    }

    /// Logs a copy of one of the member's workouts in one call.
    ///
    /// - Parameters:
    ///   - id: The workout to copy.
    ///   - at: When (now when `nil`).
    ///   - recordID: The new workout's id.
    /// - Throws: ``WorkoutError``: `NOT_FOUND` for a workout the member does not have.
    public func copyWorkout(_ id: UUID, at: Date? = nil, recordID: UUID = .timeOrdered()) async throws(WorkoutError) -> LoggedFromTemplate {
        var request = Workout_V1_LogTemplateRequest()
        request.workoutID = id.wireBytes
        return try await logAgain(request, at: at, recordID: recordID)
    }

    private func logAgain(_ request: Workout_V1_LogTemplateRequest, at: Date?, recordID: UUID) async throws(WorkoutError) -> LoggedFromTemplate {
        var request = request
        request.recordID = recordID.wireBytes
        request.atMs = at?.wireMilliseconds ?? 0
        return LoggedFromTemplate(wire: try await call(MethodCatalog.logTemplate, request, idempotent: true))
    }
}
