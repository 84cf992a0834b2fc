import Foundation
import WorkoutClient

/// Finds one of the member's workouts, meals or weigh-ins by its ID or a prefix of it.
///
/// There is no query by ID, and meals are listed only by day, so this reads the member's
/// change feed from the start (`Queries.Changes` from revision 0: every record once, in its
/// current state, deleted ones as tombstones), in pages of up to 500, and keeps the records
/// of the kind wanted whose ID starts with the prefix. A whole ID stops the search as soon as
/// it is found. The search is bounded: after ``maximumPages`` pages it stops and says so.
enum RecordFinder {
    /// The most pages of changes read (500 changes each at most: 100,000 records, decades of
    /// a member's logging).
    static let maximumPages = 200

    /// How many candidates an ambiguous prefix's message lists.
    static let listedCandidates = 10

    /// The record of `kind` whose ID starts with `prefix`.
    ///
    /// - Parameters:
    ///   - kind: Workout, meal or weigh-in.
    ///   - prefix: The ID or its first digits.
    ///   - session: The member's session.
    ///   - maximumPages: The bound on pages read.
    /// - Returns: The record, in its current state.
    /// - Throws: ``CLIError``: not found when no record matches; usage when several do (listing
    ///   them); failure when the bound is reached first; what the calls throw.
    static func find(
        _ kind: RecordKindArgument, _ prefix: RecordIDPrefix, in session: SignedInSession, maximumPages: Int = maximumPages
    ) async throws(CLIError) -> FoundRecord {
        var matches: [UUID: FoundRecord] = [:]
        var revision: UInt64 = 0
        var pages = 0
        var complete = false
        while pages < maximumPages {
            let from = revision
            let page = try await session.run("find the \(kind.noun)") { client throws(WorkoutError) in
                try await client.changes(since: from, pageSize: 500)
            }
            pages += 1
            for change in page.changes {
                switch change.item {
                case .deleted(let deletedKind, let id) where deletedKind == kind.kind:
                    matches[id] = nil
                case .some(let item):
                    if let record = FoundRecord(item), record.kind == kind, prefix.matches(record.id) {
                        matches[record.id] = record
                    }
                case .none:
                    break
                }
            }
            if prefix.wholeID != nil, let record = matches.values.first {
                return record
            }
            guard page.hasMore else {
                complete = true
                break
            }
            guard page.revision > from else {
                throw CLIError(.failure, "the server's change feed did not move on from revision \(from); cannot search for the \(kind.noun)")
            }
            revision = page.revision
        }
        return try choose(kind, prefix, from: Array(matches.values), complete: complete, zone: session.storedZone.zone)
    }

    /// The one match, or the error that says why there is none.
    ///
    /// - Parameters:
    ///   - kind: The kind searched for.
    ///   - prefix: The ID or prefix.
    ///   - matches: The records found.
    ///   - complete: Whether every record was searched.
    ///   - zone: The zone the candidates' times are shown in (the member's).
    /// - Throws: ``CLIError`` as ``find(_:_:in:maximumPages:)`` says.
    static func choose(
        _ kind: RecordKindArgument, _ prefix: RecordIDPrefix, from matches: [FoundRecord], complete: Bool, zone: TimeZone = .current
    ) throws(CLIError) -> FoundRecord {
        if matches.count == 1, complete || prefix.wholeID != nil { return matches[0] }
        guard complete else {
            throw CLIError(.failure, "searched \(Format.grouped(maximumPages * 500)) of your records without settling which \(kind.noun) \"\(prefix)\" is; give its whole ID, as \(kind.listing) prints it")
        }
        guard !matches.isEmpty else {
            throw CLIError(.notFound, "no \(kind.noun) of yours has an ID that starts or ends with \"\(prefix)\"; \(kind.listing) lists their IDs")
        }
        let sorted = matches.sorted { $0.time > $1.time }
        var lines = ["\"\(prefix)\" matches \(Format.count(matches.count, kind.noun)); give more of the ID:"]
        lines += sorted.prefix(listedCandidates).map { "  \(Format.id($0.id))  \($0.summary(in: zone))" }
        if sorted.count > listedCandidates {
            lines.append("  … and \(sorted.count - listedCandidates) more")
        }
        throw CLIError(.usage, lines.joined(separator: "\n"))
    }
}
