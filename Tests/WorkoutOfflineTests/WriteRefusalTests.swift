import Foundation
import Testing
import WorkoutClient
@testable import WorkoutOffline

/// A refusal keeps the field in Swift terms and the wire's, through the outbox file's JSON.
@Suite("WriteRefusal")
struct WriteRefusalTests {
    @Test("both field names survive encoding; a refusal written before wireField existed still decodes")
    func fieldNames() throws {
        let refusal = WriteRefusal(
            code: .invalidArgument, message: "workout.durationSeconds must be between 1 and 86400 (got 0)",
            field: "workout.durationSeconds", wireField: "workout.duration_seconds", refusedAt: Date(timeIntervalSince1970: 1_764_000_000))
        let decoded = try JSONDecoder().decode(WriteRefusal.self, from: JSONEncoder().encode(refusal))
        #expect(decoded == refusal)
        #expect(decoded.error.wireField == "workout.duration_seconds")
        #expect(decoded.description.hasSuffix("(wire field workout.duration_seconds)"), "\(decoded)")

        let older = Data(#"{"code": 3, "status": "INVALID_ARGUMENT", "message": "no", "field": "entry.weight_kg", "refusedAt": 785000000}"#.utf8)
        let old = try JSONDecoder().decode(WriteRefusal.self, from: older)
        #expect(old.field == "entry.weight_kg")
        #expect(old.wireField == nil)
    }
}
