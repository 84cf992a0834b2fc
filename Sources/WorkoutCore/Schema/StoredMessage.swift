package import Storage
package import SwiftProtobuf
package import WorkoutProtocol

/// Protobuf messages stored as their binary encoding: unknown fields survive a round trip, so
/// an older build that rewrites a record keeps what a newer one added.
extension StoredValue where Self: SwiftProtobuf.Message {
    package init(storedBytes: UnsafeRawBufferPointer) throws {
        try self.init(serializedBytes: Array(storedBytes))
    }

    package func storedBytes() throws -> [UInt8] {
        try serializedBytes()
    }
}

extension Workout_Store_V1_StoredUser: StoredValue {}
extension Workout_Store_V1_StoredSession: StoredValue {}
extension Workout_Store_V1_StoredInvite: StoredValue {}
extension Workout_Store_V1_StoredDay: StoredValue {}
extension Workout_Store_V1_StoredChange: StoredValue {}
extension Workout_V1_Workout: StoredValue {}
extension Workout_V1_Meal: StoredValue {}
extension Workout_V1_WeightEntry: StoredValue {}
extension Workout_V1_StepsReport: StoredValue {}
extension Workout_V1_Achievement: StoredValue {}
