package import Foundation
import Crypto

/// Where the HTTP face takes the id of a record whose request left it empty: a curl user or a
/// shortcut need not make 16 random bytes by hand.
///
/// With an `Idempotency-Key`, the id is derived from the member, the method and the key, so a
/// retry with the same key writes nothing twice; without one, it is random (a retry of that
/// request is a new record: say `Idempotency-Key` to retry safely).
package struct RecordIDSource: Sendable {
    private let seed: [UInt8]?

    /// Ids derived from `idempotencyKey` for the member `memberID` calling method `method`, or
    /// random ones when there is no key.
    package init(memberID: [UInt8], method: UInt32, idempotencyKey: String?) {
        guard let idempotencyKey else {
            seed = nil
            return
        }
        var bytes = Array("workout.v1 idempotency key".utf8)
        bytes.append(0)
        bytes += memberID
        withUnsafeBytes(of: method.bigEndian) { bytes += $0 }
        bytes += Array(idempotencyKey.utf8)
        seed = Array(SHA256.hash(data: bytes))
    }

    /// The id of the `index`th record the request creates (0 first): 16 bytes shaped as a
    /// UUID of version 8 (derived) or 4 (random), variant RFC 4122.
    package func id(_ index: Int) -> Data {
        var id: [UInt8]
        if let seed {
            var input = seed
            withUnsafeBytes(of: UInt32(index).bigEndian) { input += $0 }
            id = Array(Array(SHA256.hash(data: input)).prefix(16))
            id[6] = (id[6] & 0x0F) | 0x80
        } else {
            var generator = SystemRandomNumberGenerator()
            id = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            id[6] = (id[6] & 0x0F) | 0x40
        }
        id[8] = (id[8] & 0x3F) | 0x80
        return Data(id)
    }
}

/// A request that creates records identified by client-made ids: over HTTP, the ids left empty
/// are filled from a ``RecordIDSource`` before the handler sees the request.
package protocol RecordIDAssigning {
    /// Gives every record the request creates without an id one from `ids`.
    mutating func assignMissingRecordIDs(_ ids: RecordIDSource)
}

extension Workout_V1_LogWorkoutRequest: RecordIDAssigning {
    package mutating func assignMissingRecordIDs(_ ids: RecordIDSource) {
        if workout.id.isEmpty { workout.id = ids.id(0) }
    }
}

extension Workout_V1_LogMealRequest: RecordIDAssigning {
    package mutating func assignMissingRecordIDs(_ ids: RecordIDSource) {
        if meal.id.isEmpty { meal.id = ids.id(0) }
    }
}

extension Workout_V1_LogWeightRequest: RecordIDAssigning {
    package mutating func assignMissingRecordIDs(_ ids: RecordIDSource) {
        if entry.id.isEmpty { entry.id = ids.id(0) }
    }
}
