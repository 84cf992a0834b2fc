import Foundation
import LMDB
import Storage
import WorkoutProtocol
import WorkoutRules

/// The bounds on what a household keeps of members and invites, so that the lists that show
/// them whole (HouseholdView, ListMembers, ListInvites) always fit the smallest frame a client
/// may announce, 64 KiB (PROTOCOL.md, "Answers that fit a frame"): a member's entry takes
/// about 0.5 kB, an invite's about 0.25 kB.
extension HouseholdStore {
    /// The most active invites (not used, revoked or expired) a household may have at once.
    package static let maxActiveInvites = 100
    /// The most inactive invites kept for ListInvites' `include_inactive`; older ones are
    /// forgotten when a new invite is made.
    package static let maxInactiveInvites = 100

    /// Refuses to add `count` members when the household would then have more than
    /// ``Configuration/maxMembers``.
    ///
    /// - Throws: ``DomainError`` `resourceExhausted`.
    func checkRoomForMembers(_ count: Int, in txn: borrowing WriteTransaction) throws {
        let members = try txn.count(of: tables.users.table)
        guard members + count <= configuration.maxMembers else {
            throw DomainError.resourceExhausted(
                "the household has \(members) members, the most it may have is \(configuration.maxMembers); "
                    + "an admin can remove a member first")
        }
    }

    /// Makes room for one more invite: refuses when ``maxActiveInvites`` are active, and
    /// deletes the oldest inactive invites beyond ``maxInactiveInvites`` − 1.
    ///
    /// - Throws: ``DomainError`` `resourceExhausted` when too many invites are active.
    func makeRoomForInvite(now: Int64, in txn: inout WriteTransaction) throws {
        let invites = try txn.scan(tables.invites.table, ScanRequest()).elements
        let active = invites.filter { $0.value.usedBy.isEmpty && !$0.value.revoked && $0.value.expiresAtMs > now }
        guard active.count < Self.maxActiveInvites else {
            throw DomainError.resourceExhausted(
                "the household has \(active.count) active invites, the most it may have; revoke some (Admin.RevokeInvite) first")
        }
        let inactive = invites
            .filter { !($0.value.usedBy.isEmpty && !$0.value.revoked && $0.value.expiresAtMs > now) }
            // Oldest first; of invites made in the same millisecond, always the same dropped.
            .sorted { a, b in
                a.value.createdAtMs != b.value.createdAtMs ? a.value.createdAtMs < b.value.createdAtMs : a.value.inviteID.lexicographicallyPrecedes(b.value.inviteID)
            }
        for (key, _) in inactive.dropLast(Self.maxInactiveInvites - 1) {
            try txn.delete(key, from: tables.invites)
        }
    }
}
