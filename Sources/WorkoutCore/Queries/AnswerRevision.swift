import Storage

extension HouseholdStore {
    /// The caller's revision (bumped by every write of theirs, their profile's too), after the
    /// same session check every method makes: what an answer that depends only on the caller's
    /// own records and the request is a function of. The HTTP face tags such answers with it,
    /// so that an unchanged one is revalidated by this one read.
    ///
    /// - Throws: ``DomainError`` `unauthenticated` when the session has ended.
    package func answerRevision(of caller: Caller) throws -> UInt64 {
        let now = clock.nowMilliseconds()
        return try store.read { txn in try authorize(caller, in: txn, now: now).revision }
    }
}
