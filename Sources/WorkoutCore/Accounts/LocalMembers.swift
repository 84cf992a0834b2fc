import Dispatch
import Foundation
import LMDB
import Storage
import Synchronization
package import WorkoutProtocol
import WorkoutRules

/// A member to create from the server machine, without an invite.
package struct NewMember: Sendable, Hashable {
    /// The profile: email, first name and time zone required, as in Register.
    package var profile: Workout_V1_Profile
    /// The password (8...256 bytes).
    package var password: String
    /// `.member` or `.admin` (the owner is made with ``HouseholdStore/createOwner(email:password:firstName:lastName:timeZone:)``).
    package var role: Workout_V1_Role

    /// A member to create.
    package init(profile: Workout_V1_Profile, password: String, role: Workout_V1_Role = .member) {
        self.profile = profile
        self.password = password
        self.role = role
    }
}

/// Creating members from the server machine: having the data directory is the trust, as for
/// the owner. Seeds a household in one write (benchmarks, migrations) where invites and
/// registrations would take one round trip each.
extension HouseholdStore {
    /// Creates `members` in one write transaction, with the same checks as Register (bounds,
    /// unique emails) and passwords hashed with the store's parameters. Blocks until durable.
    ///
    /// - Parameter members: The members; their emails must differ from each other's and from
    ///   every existing account's.
    /// - Returns: Their profiles, in the same order (with their new ids).
    /// - Throws: ``DomainError`` `invalidArgument` for a bad field or role, `alreadyExists`
    ///   for a taken email, `resourceExhausted` when they would make the household larger
    ///   than ``Configuration/maxMembers``; then nobody is created.
    package func createMembersLocally(_ members: [NewMember]) throws -> [Workout_V1_Profile] {
        let now = clock.nowMilliseconds()
        var prepared: [Workout_Store_V1_StoredUser] = []
        prepared.reserveCapacity(members.count)
        for member in members {
            guard member.role == .member || member.role == .admin else {
                throw DomainError.invalid("role", "role must be ROLE_MEMBER or ROLE_ADMIN")
            }
            prepared.append(try newUser(profile: member.profile, role: member.role, now: now, fieldPrefix: "profile."))
            _ = try Bounds.password(new: member.password, field: "password")
        }
        // scrypt on every core (the hasher itself allows one hash per core at a time).
        let hashes = Mutex<[Int: Workout_Store_V1_PasswordHash]>([:])
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: members.count) { index in
            do {
                let hash = try hasher.hash(members[index].password)
                hashes.withLock { $0[index] = hash }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let computed = hashes.withLock { $0 }
        for index in prepared.indices { prepared[index].password = computed[index]! }
        let users = prepared
        return try store.writeAndWait { [self] txn in
            try checkRoomForMembers(users.count, in: txn)
            var profiles: [Workout_V1_Profile] = []
            for var user in users {
                try insertUser(&user, now: now, in: &txn)
                profiles.append(profile(of: user))
            }
            return profiles
        }
    }
}
