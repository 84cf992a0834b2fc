import Crypto
import WorkoutProtocol

/// The entity tags of the GET answers that are a function of the member's revision and the
/// request alone, so that a revalidation costs one read of the revision, not the query and its
/// encoding (PROTOCOL.md 25.2).
///
/// The tag is SHA-256 over a random number drawn when the server starts (a restart or an
/// upgrade ends every tag), the member, the method, the encoding, the request and the
/// member's revision. The revision is read before the answer is made: a write in between
/// gives an answer newer than its tag, which only costs the next GET a full answer, never a
/// stale one.
package enum RevisionTag {
    /// The methods whose answers follow the revision: the day's meals (the member's meals and,
    /// for its zone, their profile) and the workout history (their workouts). Each depends on
    /// no clock and on no one else's records.
    package static let methods: Set<UInt32> = [MethodCatalog.mealsOfDay.number, MethodCatalog.workoutHistory.number]

    /// What a tag is over besides the revision: the member, the method, the encoding and
    /// `content` (the request; for the GETs whose tag is over their answer, the answer).
    package static func seed(member: [UInt8], method: UInt32, json: Bool, content: [UInt8]) -> [UInt8] {
        var seed = [UInt8(member.count)] + member
        withUnsafeBytes(of: method.bigEndian) { seed += $0 }
        seed.append(json ? 1 : 2)
        return seed + content
    }

    /// The tag for `seed` at `revision`, quoted.
    package static func tag(seed: [UInt8], revision: UInt64) -> String {
        var hasher = SHA256()
        withUnsafeBytes(of: epoch) { hasher.update(bufferPointer: $0) }
        hasher.update(data: seed)
        withUnsafeBytes(of: revision.bigEndian) { hasher.update(bufferPointer: $0) }
        return EntityTag.quoted(hasher.finalize())
    }

    /// Drawn once per process.
    private static let epoch = UInt64.random(in: .min ... .max)
}
