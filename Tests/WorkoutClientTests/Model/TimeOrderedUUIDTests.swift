import Foundation
import Testing
@testable import WorkoutClient

@Suite("Time-ordered ids")
struct TimeOrderedUUIDTests {
    /// The 16 bytes of a UUID.
    static func bytes(_ id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    /// The 48-bit millisecond timestamp of a UUIDv7.
    static func milliseconds(_ id: UUID) -> UInt64 {
        bytes(id).prefix(6).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 74-bit random part of a UUIDv7 (rand_a, then rand_b).
    static func random(_ id: UUID) -> UInt128 {
        let b = bytes(id)
        let randA = UInt128(b[6] & 0x0F) << 8 | UInt128(b[7])
        let randB = b[9...].reduce(UInt128(b[8] & 0x3F)) { $0 << 8 | UInt128($1) }
        return randA << 62 | randB
    }

    @Test("An id is a UUIDv7: version 7, variant 0b10, the current Unix time in milliseconds")
    func layout() {
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        let id = UUID.timeOrdered()
        let after = UInt64(Date().timeIntervalSince1970 * 1000)
        let b = Self.bytes(id)
        #expect(b[6] >> 4 == 7)
        #expect(b[8] >> 6 == 0b10)
        #expect(id.uuidString.dropFirst(14).first == "7")
        let stamp = Self.milliseconds(id)
        // Within the clock readings around it (a few ms of slack if earlier ids in this
        // process ran ahead of the clock).
        #expect(stamp >= before && stamp <= after + 5)
    }

    @Test("10,000 ids in a row are strictly increasing as bytes and as strings")
    func strictlyIncreasing() {
        let ids = (0..<10_000).map { _ in UUID.timeOrdered() }
        for (earlier, later) in zip(ids, ids.dropFirst()) {
            #expect(Self.bytes(earlier).lexicographicallyPrecedes(Self.bytes(later)))
            #expect(earlier.uuidString < later.uuidString)
        }
        #expect(Set(ids).count == ids.count)
    }

    @Test("Ids made on several threads at once are all distinct")
    func concurrent() async {
        let ids = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<1_000).map { _ in UUID.timeOrdered() } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 4_000)
    }

    @Test("A new millisecond takes fresh random bits; the same millisecond increments them")
    func sameMillisecond() {
        var sequence = TimeOrderedIDSequence()
        let first = sequence.next(milliseconds: 1_000, random: 0xABC_DEAD_BEEF)
        let second = sequence.next(milliseconds: 1_000, random: 0x1)
        let third = sequence.next(milliseconds: 1_001, random: 0x5)
        #expect(Self.milliseconds(first) == 1_000 && Self.random(first) == 0xABC_DEAD_BEEF)
        #expect(Self.milliseconds(second) == 1_000 && Self.random(second) == 0xABC_DEAD_BEEF + 1)
        #expect(Self.milliseconds(third) == 1_001 && Self.random(third) == 0x5)
    }

    @Test("A clock set back keeps the last timestamp and keeps counting")
    func clockBack() {
        var sequence = TimeOrderedIDSequence()
        let first = sequence.next(milliseconds: 5_000, random: 100)
        let second = sequence.next(milliseconds: 4_000, random: 7)
        #expect(Self.milliseconds(second) == 5_000 && Self.random(second) == 101)
        #expect(Self.bytes(first).lexicographicallyPrecedes(Self.bytes(second)))
    }

    @Test("An exhausted random part moves to the next millisecond")
    func overflow() {
        var sequence = TimeOrderedIDSequence()
        let first = sequence.next(milliseconds: 9, random: TimeOrderedIDSequence.maxRandom)
        let second = sequence.next(milliseconds: 9, random: 3)
        #expect(Self.random(first) == TimeOrderedIDSequence.maxRandom)
        #expect(Self.bytes(first) == [0, 0, 0, 0, 0, 9, 0x7F, 0xFF, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.milliseconds(second) == 10 && Self.random(second) == 3)
        #expect(Self.bytes(first).lexicographicallyPrecedes(Self.bytes(second)))
    }

    @Test("Random bits above the 74 used never touch the version or variant")
    func randomMasked() {
        var sequence = TimeOrderedIDSequence()
        let id = sequence.next(milliseconds: 0x0102_0304_0506, random: .max)
        let b = Self.bytes(id)
        #expect(Array(b.prefix(6)) == [1, 2, 3, 4, 5, 6])
        #expect(b[6] == 0x7F && b[8] == 0xBF)
    }
}
