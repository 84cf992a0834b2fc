import Foundation
import LMDB
import Storage
import WorkoutRules

/// The session check of a read, without decoding the stored session and user: a day's
/// query (``HouseholdStore/authorizedTimeZone(_:in:now:)``), and the paged queries that need
/// nothing of the account (``HouseholdStore/checkSession(_:in:now:)``).
///
/// A day's query spent over a quarter of its instructions and 18 of its 28 allocations in
/// ``HouseholdStore/authorize(_:in:now:)``, decoding the whole stored session and the whole
/// stored user (their strings, the password hash) to use three fields: the session's member
/// and expiry, and the member's time zone. The fast path reads those three from the stored
/// bytes; anything it cannot confirm (a session expired, missing or another member's, a record
/// it cannot read) goes the full way, which throws the same errors as before.
extension HouseholdStore {
    /// The caller's default time zone (their profile's; empty when not stated), after the same
    /// check as ``authorize(_:in:now:)``: the session exists, is the caller's and has not
    /// expired, and the account exists.
    ///
    /// - Throws: ``DomainError`` `unauthenticated`, as ``authorize(_:in:now:)``.
    func authorizedTimeZone(_ caller: Caller, in txn: borrowing some TransactionReading & ~Copyable, now: Int64) throws -> String {
        if try sessionPlainlyValid(caller, in: txn, now: now) {
            let zone = try txn.withValue(in: tables.users.table.database, forKey: caller.userID.orderedKey.bytes) { stored -> String? in
                guard RawProtobuf.isWellFormed(stored) else { return nil }
                return RawProtobuf.lengthDelimitedField(StoredUserField.timeZone, in: stored).map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
            if let found = zone ?? nil { return found }
        }
        return try authorize(caller, in: txn, now: now).timeZone
    }

    /// The same check as ``authorize(_:in:now:)`` for a read that needs nothing of the account.
    ///
    /// - Throws: ``DomainError`` `unauthenticated`, as ``authorize(_:in:now:)``.
    func checkSession(_ caller: Caller, in txn: borrowing some TransactionReading & ~Copyable, now: Int64) throws {
        if try sessionPlainlyValid(caller, in: txn, now: now),
           try txn.withValue(in: tables.users.table.database, forKey: caller.userID.orderedKey.bytes, { _ in true }) == true
        {
            return
        }
        _ = try authorize(caller, in: txn, now: now)
    }

    /// Whether the caller's stored session is plainly valid (the caller's, not expired), read
    /// from its bytes; `false` for anything else, including a record that does not parse.
    private func sessionPlainlyValid(_ caller: Caller, in txn: borrowing some TransactionReading & ~Copyable, now: Int64) throws -> Bool {
        let sessionKey = DigestKey(caller.tokenDigest).orderedKey.bytes
        let valid = try txn.withValue(in: tables.sessions.table.database, forKey: sessionKey) { stored -> Bool in
            guard let expiresAt = RawProtobuf.varintField(StoredSessionField.expiresAtMs, in: stored),
                  Int64(bitPattern: expiresAt) > now,
                  let userID = RawProtobuf.lengthDelimitedField(StoredSessionField.userID, in: stored)
            else { return false }
            return withUnsafeBytes(of: caller.userID.uuid) { $0.elementsEqual(userID) }
        }
        return valid == true
    }
}

/// Field numbers of `StoredSession` (store.proto) that the read path reads from the bytes.
private enum StoredSessionField {
    static let userID = 2
    static let expiresAtMs = 7
}

/// Field numbers of `StoredUser` (store.proto) that the read path reads from the bytes.
private enum StoredUserField {
    static let timeZone = 11
}
