import Foundation
import WorkoutClient
import WorkoutOffline

/// What the session model saves on the device and starts from: the content the server stated,
/// the revision it reflects, and whose it is.
///
/// Versioned apart from the records it holds: ``format`` names this layout, and a file of
/// another format is ignored (the model then starts empty and loads from the server). Records
/// inside are the library's `Codable` value types, whose JSON keeps unknown fields out and
/// tolerates none missing, so a snapshot written by an incompatible build fails to decode and
/// is ignored the same way.
struct SessionSnapshot: Sendable, Hashable, Codable {
    /// The layout this build writes and reads.
    static let currentFormat = 1

    /// The layout of this snapshot.
    var format: Int
    /// Whose data it is, as the app names the account (``WorkoutSession/Storage/account``).
    var account: String
    /// When it was saved.
    var savedAt: Date
    /// The member revision the content reflects: the model catches up from here.
    var revision: UInt64
    /// The content as the server stated it (pending writes are not in it: the outbox keeps them).
    var content: SessionContent
}
