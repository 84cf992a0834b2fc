import Foundation
import Storage
import Testing
import TestSupport

@Suite("Secondary indexes stay in step with their tables")
struct IndexTests {
    @Test("After random inserts, moves and deletes every entry points at a record and every record has its entries", arguments: [UInt64(11), 12])
    func randomizedConsistency(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        try withStore { store, _ in
            let tables = try NoteTables(store)
            var model: [UUID: Note] = [:]
            for round in 0..<30 {
                var changes: [(UUID, Note?)] = []
                for _ in 0..<60 {
                    let roll = Int.random(in: 0..<10, using: &generator)
                    if roll < 5 || model.isEmpty {
                        let note = Note(user: .random(in: 0..<5, using: &generator), time: .random(in: -1_000...1_000, using: &generator), text: "n\(round)")
                        changes.append((randomUUID(&generator), note))
                    } else if roll < 8 {
                        // Move: same record, new user and time (its index key changes).
                        let id = model.keys.sorted { $0.uuidString < $1.uuidString }.randomElement(using: &generator)!
                        var note = model[id]!
                        note.time += .random(in: -100...100, using: &generator)
                        if Bool.random(using: &generator) { note.user = .random(in: 0..<5, using: &generator) }
                        changes.append((id, note))
                    } else {
                        let id = model.keys.sorted { $0.uuidString < $1.uuidString }.randomElement(using: &generator)!
                        changes.append((id, nil))
                    }
                    model[changes.last!.0] = changes.last!.1
                }
                let batch = changes
                try store.writeAndWait { txn in
                    for (id, note) in batch {
                        if let note { try txn.put(note, forKey: id, in: tables.notes) } else { try txn.delete(id, from: tables.notes) }
                    }
                }
            }
            try store.read { txn throws in
                #expect(try txn.verifyIndexes(of: tables.notes).isEmpty)
                #expect(try txn.count(of: tables.notes.table) == model.count)
                // Every user's notes through the index, newest first, equal the model's.
                for user: UInt32 in 0..<5 {
                    let page = try txn.scanRecords(
                        tables.byUserTime, in: tables.notes,
                        ScanRequest(range: .prefix(user.orderedKey), direction: .backward))
                    let expected = model.filter { $0.value.user == user }
                        .map { UserTimeKey(user: user, time: $0.value.time, id: $0.key) }
                        .sorted { $0.orderedKey > $1.orderedKey }
                    #expect(page.elements.map(\.key) == expected.map(\.id))
                }
            }
        }
    }

    @Test("A broken index is reported, not silently believed")
    func verifyFindsProblems() throws {
        try withStore { store, _ in
            let tables = try NoteTables(store)
            let id = UUID()
            let orphan = UserTimeKey(user: 9, time: 1, id: UUID())
            try store.writeAndWait { txn in
                try txn.put(Note(user: 1, time: 5, text: "x"), forKey: id, in: tables.notes)
                // Write around the indexed table: an entry with no record, a record with no entry.
                try txn.put(orphan.orderedKey.bytes, forKey: orphan.orderedKey.bytes, in: tables.byUserTime.database)
                try txn.delete(UserTimeKey(user: 1, time: 5, id: id).orderedKey.bytes, in: tables.byUserTime.database)
            }
            let problems = try store.read { txn throws in try txn.verifyIndexes(of: tables.notes) }
            #expect(problems.count == 2)
            let error = #expect(throws: StorageError.self) {
                try store.read { txn throws in
                    try txn.scanRecords(tables.byUserTime, in: tables.notes, ScanRequest(range: .prefix(UInt32(9).orderedKey)))
                }
            }
            #expect(error?.code == .corruptValue)
        }
    }
}
