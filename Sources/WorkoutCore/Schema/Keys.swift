package import Foundation
package import Storage

/// `(user, record id)`: the primary key of a member's workouts, meals and weight entries.
/// Every key of a member's data starts with their id, so deleting a member is a prefix scan
/// per table and one member's key can never name another's record.
package struct UserRecordKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var id: UUID

    package init(user: UUID, id: UUID) {
        self.user = user
        self.id = id
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(id)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        id = try reader.read()
    }
}

/// `(user, time, record id)`: the time index of a member's records. A date-range query is one
/// contiguous range of these keys.
package struct UserTimeKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var time: Int64
    package var id: UUID

    package init(user: UUID, time: Int64, id: UUID) {
        self.user = user
        self.time = time
        self.id = id
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(time)
        key.append(id)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        time = try reader.read()
        id = try reader.read()
    }

    /// The keys of `user`'s records from `start` (inclusive) to `end` (exclusive).
    package static func range(user: UUID, from start: Int64, to end: Int64) -> KeyRange {
        var lower = OrderedKey()
        lower.append(user)
        lower.append(start)
        var upper = OrderedKey()
        upper.append(user)
        upper.append(end)
        return .halfOpen(lower, upper)
    }
}

/// `(user, epoch day)`: a member's per-day figures.
package struct UserDayKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var epochDay: Int32

    package init(user: UUID, epochDay: Int32) {
        self.user = user
        self.epochDay = epochDay
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(epochDay)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        epochDay = try reader.read()
    }

    /// The keys of `user`'s days from `first` to `last`, both included.
    package static func range(user: UUID, first: Int32, last: Int32) -> KeyRange {
        let lower = UserDayKey(user: user, epochDay: first).orderedKey
        let upper = UserDayKey(user: user, epochDay: last).orderedKey
        return KeyRange(lower: .inclusive(lower.bytes), upper: .inclusive(upper.bytes))
    }
}

/// `(user, epoch day, source)`: one steps report per device per day.
package struct UserStepsKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var epochDay: Int32
    package var source: String

    package init(user: UUID, epochDay: Int32, source: String) {
        self.user = user
        self.epochDay = epochDay
        self.source = source
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(epochDay)
        key.append(source)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        epochDay = try reader.read()
        source = try reader.read()
    }
}

/// `(user, day, source, start)`: one steps sample of a source's day, so a source's samples of a
/// day are one prefix, in time order.
package struct StepsSampleKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var epochDay: Int32
    package var source: String
    package var startMs: Int64

    package init(user: UUID, epochDay: Int32, source: String, startMs: Int64) {
        self.user = user
        self.epochDay = epochDay
        self.source = source
        self.startMs = startMs
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(epochDay)
        key.append(source)
        key.append(startMs)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        epochDay = try reader.read()
        source = try reader.read()
        startMs = try reader.read()
    }

    /// The samples of one source's day.
    package static func range(user: UUID, epochDay: Int32, source: String) -> KeyRange {
        .prefix(UserStepsKey(user: user, epochDay: epochDay, source: source).orderedKey)
    }
}

/// `(user, name)`: a member's achievement by its id (`workout_10`), or another named item.
package struct UserNameKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var name: String

    package init(user: UUID, name: String) {
        self.user = user
        self.name = name
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(name)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        name = try reader.read()
    }
}

/// `(user, revision)`: a member's change log, in revision order.
package struct UserRevisionKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var revision: UInt64

    package init(user: UUID, revision: UInt64) {
        self.user = user
        self.revision = revision
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(revision)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        revision = try reader.read()
    }
}

/// `(user, kind, record id)`: a deleted record, so its id is never taken again.
package struct TombstoneKey: OrderedKeyCodable, Hashable {
    package var user: UUID
    package var kind: UInt8
    package var id: UUID

    package init(user: UUID, kind: UInt8, id: UUID) {
        self.user = user
        self.kind = kind
        self.id = id
    }

    package func encode(into key: inout OrderedKey) {
        key.append(user)
        key.append(kind)
        key.append(id)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        user = try reader.read()
        kind = try reader.read()
        id = try reader.read()
    }
}

/// A SHA-256 digest as a key: sessions by token hash, invites by code hash.
package struct DigestKey: OrderedKeyCodable, Hashable {
    package var bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func encode(into key: inout OrderedKey) { key.append(raw: bytes) }

    package init(reading reader: inout OrderedKeyReader) throws {
        bytes = reader.readRemaining()
        guard bytes.count == 32 else {
            throw StorageError(.malformedKey, "a digest key has \(bytes.count) bytes instead of 32")
        }
    }
}

/// `(user, id)` where the id names a session or invite; used by the per-user indexes.
package typealias UserItemKey = UserRecordKey

/// `(word, name, food id)`: the food library's word index, one entry per word of a food's name
/// and brand, with the food's name lower-cased, so a search reads the names it ranks by from
/// the index without reading the foods.
package struct FoodWordKey: OrderedKeyCodable, Hashable {
    package var word: String
    package var name: String
    package var food: UUID

    package init(word: String, name: String, food: UUID) {
        self.word = word
        self.name = name
        self.food = food
    }

    package func encode(into key: inout OrderedKey) {
        key.append(word)
        key.append(name)
        key.append(food)
    }

    package init(reading reader: inout OrderedKeyReader) throws {
        word = try reader.read()
        name = try reader.read()
        food = try reader.read()
    }

    /// The name and the food of an entry's key, without building its word: what a search
    /// ranks by.
    ///
    /// - Throws: `StorageError` `malformedKey` when the bytes are not a whole key.
    package static func nameAndFood(decodingKey bytes: UnsafeRawBufferPointer) throws -> (name: String, food: UUID) {
        var reader = OrderedKeyReader(bytes)
        try reader.skipString()
        let name = try reader.read(String.self)
        let food = try reader.read(UUID.self)
        guard reader.isAtEnd else {
            throw StorageError(.malformedKey, "key of \(bytes.count) bytes has bytes left after a FoodWordKey")
        }
        return (name, food)
    }

    /// The entries whose word starts with `prefix`: the string's bytes without the terminator.
    package static func range(wordsStartingWith prefix: String) -> KeyRange {
        var key = OrderedKey()
        key.append(raw: prefix.utf8)
        return .prefix(key)
    }
}
