import Foundation
import WorkoutCore
import WorkoutRules
package import WorkoutProtocol

/// A post to one of the ingest endpoints: its body as it came, and its `X-Signature`.
package struct IngestPost: Sendable {
    /// The body, as sent.
    package var body: [UInt8]
    /// The request's `X-Signature`, if it had one.
    package var signature: String?

    package init(body: [UInt8], signature: String?) {
        self.body = body
        self.signature = signature
    }
}

/// One record an ingest endpoint made from a post, named by where it was in the post
/// (`steps[3]`, `workouts[0]`), so a refusal says which.
package struct IngestEntry: Sendable {
    /// Where the record came from in the post.
    package var field: String
    /// The record, as ImportRecords takes it.
    package var record: Workout_V1_ImportRecord
}

/// The endpoints the HTTP face alone serves, outside the method catalog: what automations
/// post in formats of their own.
package enum IngestRoutes {
    /// `POST /ingest/health-auto-export`: Health Auto Export's REST JSON, turned into import
    /// batches (a device token with the `import` scope, or a session).
    package static let healthAutoExport = MethodDescriptor.httpOnly(
        number: 901, name: "Ingest.HealthAutoExport",
        summary: "Health Auto Export's REST JSON, imported as ImportRecords batches.")

    /// `POST /ingest/health-connect`: what the Android apps HC Webhook and Life Dashboard
    /// Companion post from Health Connect, turned into import batches (a device token with the
    /// `import` scope, signed or not, or a session).
    package static let healthConnect = MethodDescriptor.httpOnly(
        number: 902, name: "Ingest.HealthConnect",
        summary: "Health Connect records as HC Webhook and Life Dashboard Companion post them, imported as ImportRecords batches.")

    /// `POST /ingest/workout-file`: a FIT, GPX or TCX file as the body (any `Content-Type`,
    /// gzip-compressed or not), its workouts imported with the ids the CLI's import gives them.
    package static let workoutFile = MethodDescriptor.httpOnly(
        number: 903, name: "Ingest.WorkoutFile",
        summary: "A FIT, GPX or TCX file, its workouts imported as an ImportRecords batch.", takesAnyBody: true)

    /// Every ingest endpoint, in number order.
    package static let all: [MethodDescriptor] = [healthAutoExport, healthConnect, workoutFile]

    /// The path of each, for ``HTTPRoutes``.
    package static let byPath: [String: MethodDescriptor] = [
        "/ingest/health-auto-export": healthAutoExport,
        "/ingest/health-connect": healthConnect,
        "/ingest/workout-file": workoutFile,
    ]

    /// The most refusals an answer spells out (all are counted).
    static let maxRefusalsShown = 10

    /// What the ingest answers: what was stored, unchanged, skipped and refused. `stepsReports`
    /// counts the sources' days whose sum of samples changed; `stepsSamples` the samples stored
    /// or corrected; `skipped` the records of kinds the server does not keep (or without the
    /// fields it needs), by kind; `refused` the records the server's bounds refuse, by kind,
    /// and `refusals` the first of them in words.
    struct Answer: Encodable {
        var workouts: UInt32 = 0
        var meals: UInt32 = 0
        var weightEntries: UInt32 = 0
        var stepsReports: UInt32 = 0
        var stepsSamples: UInt32 = 0
        var unchanged: UInt32 = 0
        var skipped: [String: Int] = [:]
        var refused: [String: Int] = [:]
        var refusals: [String] = []
    }

    /// Imports a Health Auto Export body for `caller`.
    static func importHealthAutoExport(_ post: IngestPost, caller: Caller, household: HouseholdStore) async throws -> [UInt8] {
        try IngestSignature.check(post, caller: caller)
        let export = try HealthAutoExport(json: post.body)
        return try await importEntries(export.entries, skipped: export.skipped, caller: caller, household: household)
    }

    /// Imports a Health Connect push (HC Webhook's or Life Dashboard Companion's) for `caller`,
    /// its instants counted on the caller's local days.
    static func importHealthConnect(_ post: IngestPost, caller: Caller, household: HouseholdStore) async throws -> [UInt8] {
        try IngestSignature.check(post, caller: caller)
        let push = try HealthConnectPush(json: post.body, zone: household.timeZone(of: caller))
        return try await importEntries(push.entries, skipped: push.skipped, caller: caller, household: household)
    }

    /// Imports the workouts of a workout file for `caller`.
    static func importWorkoutFile(_ post: IngestPost, caller: Caller, household: HouseholdStore) async throws -> [UInt8] {
        try IngestSignature.check(post, caller: caller)
        let upload = try WorkoutFileUpload.entries(post.body)
        return try await importEntries(upload.entries, skipped: upload.skipped, caller: caller, household: household)
    }

    /// Imports `entries`, batch by batch (each all or nothing; ids derived from the source, so
    /// a batch sent again changes nothing). A record the server's bounds refuse is counted and
    /// named in the answer, and the others are stored: one bad sample never holds back a
    /// phone's every later push.
    private static func importEntries(
        _ entries: [IngestEntry], skipped: [String: Int], caller: Caller, household: HouseholdStore
    ) async throws -> [UInt8] {
        var answer = Answer(skipped: skipped)
        func refuse(_ entry: IngestEntry, _ reason: String) {
            answer.refused[String(entry.field.prefix { $0 != "[" }), default: 0] += 1
            if answer.refusals.count < maxRefusalsShown { answer.refusals.append("\(entry.field): \(reason)") }
        }
        var accepted: [IngestEntry] = []
        accepted.reserveCapacity(entries.count)
        for entry in entries {
            if let refusal = household.importRefusal(of: entry.record) {
                refuse(entry, refusal)
            } else {
                accepted.append(entry)
            }
        }
        let size = HouseholdStore.maxImportBatchRecords
        // A file of no workout stores nothing and answers so (ImportRecords takes no empty batch).
        for start in stride(from: 0, to: accepted.count, by: size) {
            var batch = Array(accepted[start..<min(start + size, accepted.count)])
            var imported = Workout_V1_ImportRecordsResponse()
            // A record already stored under its id with other content (a workout a phone sent
            // before this server read more of its fields, or an earlier version of the app's
            // export) is kept as stored and named; the rest of the batch goes in without it.
            while !batch.isEmpty {
                var request = Workout_V1_ImportRecordsRequest()
                request.records = batch.map(\.record)
                do {
                    imported = try await household.importRecords(caller, request)
                    break
                } catch let error as DomainError where error.code == .alreadyExists {
                    guard let index = ImportRecordPath.index(in: error.field), batch.indices.contains(index) else { throw error }
                    refuse(batch.remove(at: index), "already stored with other content; the stored record is kept")
                }
            }
            answer.workouts += imported.workouts
            answer.meals += imported.meals
            answer.weightEntries += imported.weightEntries
            answer.stepsReports += imported.stepsReports
            answer.stepsSamples += imported.stepsSamples
            answer.unchanged += imported.unchanged
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(answer))
    }
}
