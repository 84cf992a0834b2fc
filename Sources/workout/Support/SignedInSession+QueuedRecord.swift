import WorkoutClient
import WorkoutOffline

extension SignedInSession {
    /// The member's record of `kind` with ID `prefix` that waits in their outbox, if one does
    /// (see ``QueuedRecordFinder``). The outbox is opened only if it exists, and closed again
    /// before this returns.
    ///
    /// - Parameters:
    ///   - kind: Workout, meal or weigh-in.
    ///   - prefix: The ID or its first digits.
    /// - Returns: The record as its waiting writes leave it, or `nil`.
    /// - Throws: ``CLIError`` when the outbox cannot be opened, or several waiting records match.
    func queuedRecord(_ kind: RecordKindArgument, _ prefix: RecordIDPrefix) throws(CLIError) -> FoundRecord? {
        guard MemberOutbox.exists(in: store) else { return nil }
        let outbox: Outbox
        do {
            outbox = try MemberOutbox.openOutbox(for: credentials, in: store)
        } catch where MemberOutbox.holdsOtherAccount(error) {
            return nil  // another account's writes: none of them is this member's record
        } catch {
            throw MemberOutbox.cliError(error)
        }
        defer { outbox.close() }
        return try QueuedRecordFinder.find(kind, prefix, in: outbox.entries, zone: storedZone.zone)
    }
}
