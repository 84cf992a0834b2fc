import Foundation
import LMDB
import Storage
import TestSupport

/// A record for tests: a member's note at a time.
struct Note: StoredValue, Equatable {
    var user: UInt32
    var time: Int64
    var text: String

    struct Malformed: Error {}

    init(user: UInt32, time: Int64, text: String) {
        self.user = user
        self.time = time
        self.text = text
    }

    init(storedBytes: UnsafeRawBufferPointer) throws {
        guard storedBytes.count >= 13, storedBytes[0] == 0x4E else { throw Malformed() }
        var reader = OrderedKeyReader(UnsafeRawBufferPointer(rebasing: storedBytes[1...]))
        user = try reader.read(UInt32.self)
        time = try reader.read(Int64.self)
        text = String(decoding: reader.readRemaining(), as: UTF8.self)
    }

    func storedBytes() throws -> [UInt8] {
        var key = OrderedKey()
        key.append(UInt8(0x4E))
        key.append(user)
        key.append(time)
        key.append(raw: Array(text.utf8))
        return key.bytes
    }
}

/// The index key of a note: (user, time, note id).
struct UserTimeKey: OrderedKeyCodable, Hashable, Comparable {
    var user: UInt32
    var time: Int64
    var id: UUID

    func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(time)
        key.append(id)
    }

    init(user: UInt32, time: Int64, id: UUID) {
        self.user = user
        self.time = time
        self.id = id
    }

    init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        time = try reader.read()
        id = try reader.read()
    }

    static func < (lhs: UserTimeKey, rhs: UserTimeKey) -> Bool {
        (lhs.user, lhs.time, lhs.id.uuidString) < (rhs.user, rhs.time, rhs.id.uuidString)
    }
}

/// The schema the storage tests use.
let testSchema = Schema(version: 1, tables: ["notes", "notes_by_user_time", "counters"])

/// The notes table with its (user, time, id) index.
struct NoteTables {
    let notes: IndexedTable<UUID, Note>
    let byUserTime: SecondaryIndex<UserTimeKey, UUID, Note>
    let counters: Table<String, [UInt8]>

    init(_ store: Store) throws {
        byUserTime = SecondaryIndex(database: try store.database("notes_by_user_time")) { id, note in
            [UserTimeKey(user: note.user, time: note.time, id: id)]
        }
        notes = IndexedTable(try store.table("notes")).indexed(by: byUserTime)
        counters = try store.table("counters")
    }
}

/// Opens a store on a fresh directory, runs `body`, closes it.
func withStore<R>(
    schema: Schema = testSchema,
    configure: (inout Environment.Configuration) -> Void = { _ in },
    _ body: (Store, String) throws -> R
) throws -> R {
    try withTemporaryDirectory { path in
        var configuration = Environment.Configuration()
        configure(&configuration)
        let store = try Store(directory: path + "/data", schema: schema, configuration: configuration)
        defer { store.close() }
        return try body(store, path)
    }
}

/// The async form of ``withStore(schema:configure:_:)``.
func withStore<R>(
    schema: Schema = testSchema,
    _ body: (Store, String) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { path in
        let store = try Store(directory: path + "/data", schema: schema)
        defer { store.close() }
        return try await body(store, path)
    }
}

/// A UUID made from a generator, so randomized tests replay from their seed.
func randomUUID(_ generator: inout SeededGenerator) -> UUID {
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
    return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                       bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
}
