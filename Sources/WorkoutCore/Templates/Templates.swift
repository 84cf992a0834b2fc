import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// A member's templates: saved meals and workouts, and logging one again (or a copy of one of
/// their meals or workouts) in one call, through the same insertion LogMeal and LogWorkout use.
extension HouseholdStore {
    /// The most templates a member keeps.
    static let maxTemplates = 200
    /// A template's name, UTF-8 bytes.
    static let templateNameBytes = 1...64

    /// Creates a template, or replaces the caller's template with its id.
    ///
    /// - Throws: ``DomainError`` `invalidArgument` naming the field (the content's fields as the
    ///   meal's or workout's, under `template.meal` or `template.workout`), `alreadyExists` for a
    ///   name another template has, `resourceExhausted` past 200 templates.
    package func saveTemplate(_ caller: Caller, _ request: Workout_V1_SaveTemplateRequest) async throws -> Workout_V1_SaveTemplateResponse {
        let template = request.template
        let id = try Bounds.recordID(template.id, field: "template.id")
        try Bounds.text(template.name, field: "template.name", bytes: Self.templateNameBytes)
        let now = clock.nowMilliseconds()
        // The content is checked as a record logged now would be.
        var content = Workout_V1_Template()
        content.id = id.data
        content.name = template.name
        switch template.record {
        case .meal(let meal):
            var probe = meal
            probe.id = id.data
            probe.eatenAtMs = now
            probe.timeZone = ""
            content.meal = try Self.renamingFields(from: "meal", to: "template.meal") { try validatedMeal(probe, now: now).meal }
        case .workout(let workout):
            var probe = workout
            probe.id = id.data
            probe.performedAtMs = now
            probe.timeZone = ""
            content.workout = try Self.renamingFields(from: "workout", to: "template.workout") { try validatedWorkout(probe, now: now).workout }
        case nil:
            throw DomainError.invalid("template.meal", "template needs a meal or a workout to log")
        }
        let checked = content
        return try await write { [self] txn in
            _ = try authorize(caller, in: txn, now: now)
            let key = UserRecordKey(user: caller.userID, id: id)
            let mine = try txn.scan(tables.templates, ScanRequest(range: .prefix(caller.userID.orderedKey))).elements
            if mine.contains(where: { $0.key.id != id && $0.value.name.lowercased() == checked.name.lowercased() }) {
                throw DomainError.alreadyExists("you have a template named \"\(checked.name)\" already", field: "template.name")
            }
            let existing = mine.first { $0.key.id == id }?.value
            if existing == nil, mine.count >= Self.maxTemplates {
                throw DomainError.resourceExhausted("you have \(mine.count) templates, the most one may keep; delete one first")
            }
            var stored = checked
            if case .meal(var meal) = stored.record {
                // Items from library foods become copies now: the template logs what it saved.
                meal.eatenAtMs = 0
                try resolveFoodItems(&meal, keeping: existing?.meal.items ?? [], user: caller.userID, now: now, in: &txn, countingUses: false)
                meal.id = Data()
                stored.meal = meal
            } else {
                stored.workout.id = Data()
                stored.workout.performedAtMs = 0
            }
            stored.createdAtMs = existing?.createdAtMs ?? now
            stored.updatedAtMs = now
            try txn.put(stored, forKey: key, in: tables.templates)
            var response = Workout_V1_SaveTemplateResponse()
            response.template = stored
            return response
        }
    }

    /// The caller's templates, by name.
    package func listTemplates(_ caller: Caller) throws -> Workout_V1_ListTemplatesResponse {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_ListTemplatesResponse()
            response.templates = try txn.scan(tables.templates, ScanRequest(range: .prefix(caller.userID.orderedKey))).elements
                .map(\.value).sorted { $0.name.lowercased() < $1.name.lowercased() }
            return response
        }
    }

    /// Deletes one of the caller's templates (idempotent).
    package func deleteTemplate(_ caller: Caller, _ request: Workout_V1_DeleteTemplateRequest) async throws -> Workout_V1_DeleteTemplateResponse {
        let id = try Bounds.recordID(request.id, field: "id")
        let now = clock.nowMilliseconds()
        return try await write { [self] txn in
            _ = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_DeleteTemplateResponse()
            response.deleted = try txn.delete(UserRecordKey(user: caller.userID, id: id), from: tables.templates)
            return response
        }
    }

    /// Logs the content of a template, or of one of the caller's meals or workouts, as a new
    /// record with the request's id, at its time (default now).
    ///
    /// - Throws: ``DomainError`` `notFound` for a source the caller does not have,
    ///   `alreadyExists` for a record id used by a record of other content, what LogMeal and
    ///   LogWorkout throw.
    package func logTemplate(_ caller: Caller, _ request: Workout_V1_LogTemplateRequest) async throws -> Workout_V1_LogTemplateResponse {
        let recordID = try Bounds.recordID(request.recordID, field: "record_id")
        let source: (kind: String, id: UUID)
        switch request.source {
        case .templateID(let bytes): source = ("template", try Bounds.recordID(bytes, field: "template_id"))
        case .mealID(let bytes): source = ("meal", try Bounds.recordID(bytes, field: "meal_id"))
        case .workoutID(let bytes): source = ("workout", try Bounds.recordID(bytes, field: "workout_id"))
        case nil: throw DomainError.invalid("template_id", "give what to log: template_id, meal_id or workout_id")
        }
        let now = clock.nowMilliseconds()
        let at = request.atMs == 0 ? now : request.atMs
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let sourceKey = UserRecordKey(user: caller.userID, id: source.id)
            var content: Workout_V1_Template.OneOf_Record
            switch source.kind {
            case "template":
                guard let template = try txn.get(sourceKey, from: tables.templates), let record = template.record else {
                    throw DomainError(.notFound, "you have no template with this id", field: "template_id")
                }
                content = record
            case "meal":
                guard let meal = try txn.get(sourceKey, from: tables.meals.table) else {
                    throw DomainError(.notFound, "you have no meal with this id", field: "meal_id")
                }
                content = .meal(meal)
            default:
                guard let workout = try txn.get(sourceKey, from: tables.workouts.table) else {
                    throw DomainError(.notFound, "you have no workout with this id", field: "workout_id")
                }
                content = .workout(workout)
            }
            var response = Workout_V1_LogTemplateResponse()
            switch content {
            case .meal(let saved):
                var meal = Workout_V1_Meal()
                meal.id = recordID.data
                meal.mealType = saved.mealType
                meal.name = saved.name
                meal.items = saved.items
                meal.eatenAtMs = at
                meal.timeZone = request.timeZone
                // A retry without a time finds the meal it logged, whatever the time is now.
                if request.atMs == 0, let existing = try txn.get(UserRecordKey(user: caller.userID, id: recordID), from: tables.meals.table),
                   existing.mealType == saved.mealType, existing.name == saved.name, existing.items == saved.items {
                    response.meal.meal = existing
                    response.meal.replayed = true
                    return response
                }
                let (id, checked) = try validatedMeal(meal, now: now)
                let logged = try insertMeal(checked, id: id, user: &user, now: now, in: &txn, keepingCopies: saved.items)
                if !logged.replayed { try saveUser(&user, profileChanged: false, now: now, in: &txn) }
                response.meal.meal = logged.meal
                response.meal.replayed = logged.replayed
            case .workout(let saved):
                var workout = saved
                workout.id = recordID.data
                workout.performedAtMs = at
                workout.timeZone = request.timeZone
                workout.localDay = Workout_V1_LocalDate()
                workout.revision = 0
                workout.createdAtMs = 0
                workout.updatedAtMs = 0
                if request.atMs == 0, let existing = try txn.get(UserRecordKey(user: caller.userID, id: recordID), from: tables.workouts.table),
                   sameContent(existing, saved, ignoringTime: true) {
                    response.workout.workout = existing
                    response.workout.totals = totals(of: user, now: now)
                    response.workout.replayed = true
                    return response
                }
                let (id, checked) = try validatedWorkout(workout, now: now)
                let logged = try insertWorkout(checked, id: id, user: &user, now: now, in: &txn)
                if !logged.replayed { try saveUser(&user, profileChanged: false, now: now, in: &txn) }
                response.workout.workout = logged.workout
                response.workout.totals = totals(of: user, now: now)
                response.workout.unlocked = logged.unlocked
                response.workout.replayed = logged.replayed
            }
            return response
        }
    }

    /// Runs `body`, naming a refused field under `to` instead of `from` (`meal.items[0]` →
    /// `template.meal.items[0]`).
    private static func renamingFields<R>(from: String, to: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as DomainError {
            guard let field = error.field, field == from || field.hasPrefix(from + ".") else { throw error }
            let renamed = to + field.dropFirst(from.count)
            throw DomainError(error.code, error.message.replacingOccurrences(of: field, with: renamed), field: renamed)
        }
    }
}
