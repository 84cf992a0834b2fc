package import Foundation
package import LMDB
package import Storage
package import WorkoutProtocol
import WorkoutRules

/// A household's data and everything members and admins do with it: accounts, sessions,
/// invites, logging, queries, the household view and export. No sockets: the server maps
/// each protocol method onto one of these operations, and the tests call them directly.
///
/// Rules (the module's README says more):
/// 1. Reads run on the caller's thread in one read transaction; writes go through the store's
///    group-commit writer, each one transaction, durable before it returns.
/// 2. Every member operation takes a ``Caller`` and touches only keys that begin with the
///    caller's id; its session is checked inside the same transaction.
/// 3. Slow work (scrypt) happens before a write is submitted, never inside the writer.
package final class HouseholdStore: Sendable {
    /// Lifetimes and limits.
    package struct Configuration: Sendable {
        /// How long a session lives after its last login or resume.
        package var sessionLifetimeMilliseconds: Int64 = 30 * 24 * 3600 * 1000
        /// The most sessions one member may hold; the least recently used goes first.
        package var maxSessionsPerMember = 50
        /// The most members (the owner included) a household may have: HouseholdView and
        /// ListMembers list them all, so they must fit one frame (about 0.5 kB each).
        /// Register and local member creation refuse beyond it.
        package var maxMembers = 100
        /// How long an invite lives when the admin does not say.
        package var defaultInviteLifetimeMilliseconds: Int64 = 7 * 24 * 3600 * 1000
        /// scrypt's parameters for new password hashes.
        package var passwordParameters: PasswordHasher.Parameters = .standard
        /// Login throttling.
        package var throttle = LoginThrottle.Policy()
        /// LMDB's sizes.
        package var environment = Environment.Configuration()
        /// Import batches (`Logging.ImportRecords`) each member may send per minute.
        package var importBatchesPerMinute = 120

        package init() {}
    }

    /// The store underneath.
    package let store: Store
    /// Its tables.
    package let tables: HouseholdSchema
    /// The time.
    package let clock: any WallClock
    /// Password hashing.
    package let hasher: PasswordHasher
    /// Failed-login bookkeeping.
    package let throttle: LoginThrottle
    /// Lifetimes and limits.
    package let configuration: Configuration
    /// Wakes watchers when a member's revision moves.
    package let changeNotifier = ChangeNotifier()
    /// Seals and opens the queries' page tokens with this store's secret.
    package let pageTokens: PageTokens
    /// Bounds each member's import batches per minute.
    package let importPacer: ImportPacer

    /// Opens (creating if needed) the household store in `directory`.
    package init(directory: String, configuration: Configuration = Configuration(), clock: any WallClock = SystemClock()) throws {
        self.store = try Store(directory: directory, schema: HouseholdSchema.schema, configuration: configuration.environment)
        do {
            self.tables = try HouseholdSchema(store: store)
            self.pageTokens = PageTokens(
                secret: try store.metaValue(forKey: PageTokens.secretKey) { Secrets.randomBytes(PageTokens.secretSize) })
        } catch {
            store.close()
            throw error
        }
        self.clock = clock
        self.configuration = configuration
        self.hasher = PasswordHasher(parameters: configuration.passwordParameters)
        self.throttle = LoginThrottle(policy: configuration.throttle)
        self.importPacer = ImportPacer(batchesPerMinute: configuration.importBatchesPerMinute)
    }

    /// Flushes pending writes and closes the store.
    package func close() {
        store.close()
    }

    /// Whether the current task's writes may be committed on its own thread when the writer
    /// is idle: set by a server around a call whose task runs on a Dispatch queue of its own
    /// (a connection's), never on Swift's cooperative pool, whose few threads must not wait
    /// for a disk. See `GroupCommitWriter.submit(_:mayCommitOnCaller:completion:)`.
    @TaskLocal package static var commitsOnCallersThread = false

    /// Applies `operation` in the next group commit, then tells watchers of `user` (if any)
    /// that their revision moved.
    func write<R: Sendable>(
        notifying user: UUID? = nil,
        _ operation: @escaping @Sendable (inout WriteTransaction) throws -> R
    ) async throws -> R {
        let result = try await store.write(mayCommitOnCaller: Self.commitsOnCallersThread, operation)
        if let user { changeNotifier.notify(user) }
        return result
    }
}

/// Who is calling: an authenticated member's session, as a connection holds it.
package struct Caller: Sendable, Hashable {
    /// The member.
    package var userID: UUID
    /// The session's id (shown in ListSessions).
    package var sessionID: UUID
    /// SHA-256 of the session's token: the session's key.
    package var tokenDigest: [UInt8]
    /// What the caller may do when it is a device token; `nil` for a session made by Login or
    /// Register, which may do everything its member may.
    package var scopes: Set<Workout_V1_TokenScope>?
    /// A signed device token's signing secret (the HMAC key of its posts' `X-Signature`);
    /// `nil` for every other caller.
    package var signingSecret: [UInt8]?
    /// Whether the member is an admin or the owner, as their account said when the session was
    /// resolved. It never changes (an admin may become the owner; no one else changes role),
    /// and the admin-only operations check it again in their own transaction.
    package var isAdmin: Bool

    package init(
        userID: UUID, sessionID: UUID, tokenDigest: [UInt8], scopes: Set<Workout_V1_TokenScope>? = nil, signingSecret: [UInt8]? = nil,
        isAdmin: Bool = false
    ) {
        self.userID = userID
        self.sessionID = sessionID
        self.tokenDigest = tokenDigest
        self.scopes = scopes
        self.signingSecret = signingSecret
        self.isAdmin = isAdmin
    }
}
