package import Storage
package import SwiftProtobuf
import WorkoutProtocol

/// A protobuf message stored as its binary encoding. Unknown fields survive a round trip, so
/// an older build that rewrites a record keeps what a newer one added.
package protocol StoredMessage: StoredValue, SwiftProtobuf.Message {}

extension StoredMessage {
    package init(storedBytes: UnsafeRawBufferPointer) throws {
        try self.init(serializedBytes: Array(storedBytes))
    }

    package func storedBytes() throws -> [UInt8] {
        try serializedBytes()
    }
}

extension Workout_Store_V1_StoredUser: StoredMessage {}
extension Workout_Store_V1_StoredSession: StoredMessage {}
extension Workout_Store_V1_StoredInvite: StoredMessage {}
extension Workout_Store_V1_StoredDay: StoredMessage {}
extension Workout_Store_V1_StoredChange: StoredMessage {}
extension Workout_V1_Workout: StoredMessage {}
extension Workout_V1_Meal: StoredMessage {}
extension Workout_V1_WeightEntry: StoredMessage {}
extension Workout_V1_GoalsEntry: StoredMessage {}
extension Workout_V1_Food: StoredMessage {}
extension Workout_V1_FoodUser: StoredMessage {}
extension Workout_V1_Template: StoredMessage {}
extension Workout_V1_StepsReport: StoredMessage {}
extension Workout_V1_StepsSample: StoredMessage {}
extension Workout_V1_Achievement: StoredMessage {}
