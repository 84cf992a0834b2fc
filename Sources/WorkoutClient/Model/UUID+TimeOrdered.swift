// Time-ordered record ids: UUIDv7 (RFC 9562, section 5.7), which PROTOCOL.md recommends
// for the ids clients generate, so that ids sort by creation time.
//
//  0                   1                   2                   3
//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
// |                    unix_ts_ms (48 bits, big-endian)          |
// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
// |          unix_ts_ms           |  ver  |       rand_a          |
// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
// |var|                        rand_b                             |
// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
// |                            rand_b                             |
// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   ver = 0b0111, var = 0b10; rand_a (12 bits) and rand_b (62 bits) together are
//   one 74-bit number, rand_a its high bits.
//
// Monotonicity (RFC 9562, section 6.2, method 2 with a step of one): within a process,
// each id is greater than the previous one, compared as bytes. A new millisecond starts
// from fresh random bits (SystemRandomNumberGenerator); when the clock shows the same
// millisecond as the previous id, or an earlier one (the wall clock was set back), the
// previous id's timestamp is kept and its 74-bit random part is incremented. Should it
// overflow (which needs about 2^73 ids in one millisecond on average), the timestamp
// moves one millisecond ahead.
// The state sits in a `Mutex`; random bits are drawn before taking it.

public import Foundation
import Synchronization

extension UUID {
    /// A new time-ordered id, for records a client creates (workouts, meals, weight
    /// entries): a UUIDv7 (RFC 9562) holding the current Unix time in milliseconds and
    /// 74 random bits.
    ///
    /// Ids made by one process are strictly increasing (compared as bytes, and so as
    /// their `uuidString`s), even when several are made in one millisecond or the wall
    /// clock is set back. Reusing an id makes a write idempotent: retrying a `Log*` call
    /// with the same record (and so the same id) never stores it twice.
    ///
    /// - Returns: A fresh UUIDv7.
    public static func timeOrdered() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let random = UInt128(generator.next() as UInt64) << 64 | UInt128(generator.next() as UInt64)
        let seconds = Date().timeIntervalSince1970
        let now = seconds > 0 ? UInt64(seconds * 1000) : 0
        return timeOrderedState.withLock { $0.next(milliseconds: now, random: random) }
    }
}

/// The process-wide state behind ``Foundation/UUID/timeOrdered()``.
private let timeOrderedState = Mutex(TimeOrderedIDSequence())

/// The state of a sequence of strictly increasing UUIDv7s: the last id's timestamp and
/// 74-bit random part. A value type without locking or clock, so its rules can be tested
/// with chosen times and random bits.
struct TimeOrderedIDSequence: Sendable {
    /// The largest timestamp a UUIDv7 holds: 2^48 - 1 milliseconds.
    static let maxMilliseconds: UInt64 = (1 << 48) - 1
    /// The largest 74-bit random part.
    static let maxRandom: UInt128 = (1 << 74) - 1

    /// The timestamp of the last id made, in milliseconds since 1970.
    private(set) var lastMilliseconds: UInt64 = 0
    /// The random part of the last id made, or `nil` before the first.
    private(set) var lastRandom: UInt128?

    /// Makes the next id.
    ///
    /// - Parameters:
    ///   - now: The current time, in milliseconds since 1970 (clamped to 48 bits).
    ///   - random: Random bits; the low 74 are used when a new millisecond starts.
    /// - Returns: A UUIDv7 greater than every id this sequence made before.
    mutating func next(milliseconds now: UInt64, random: UInt128) -> UUID {
        let now = min(now, Self.maxMilliseconds)
        if let last = lastRandom, now <= lastMilliseconds {
            if last < Self.maxRandom {
                lastRandom = last + 1
            } else {
                // The random part is exhausted for this millisecond: borrow the next one.
                precondition(lastMilliseconds < Self.maxMilliseconds, "UUIDv7 timestamps are exhausted")
                lastMilliseconds += 1
                lastRandom = random & Self.maxRandom
            }
        } else {
            lastMilliseconds = now
            lastRandom = random & Self.maxRandom
        }
        return Self.uuid(milliseconds: lastMilliseconds, random: lastRandom ?? 0)
    }

    /// Lays out a UUIDv7.
    ///
    /// - Parameters:
    ///   - milliseconds: The timestamp, at most 48 bits.
    ///   - random: The random part, at most 74 bits: `rand_a` is its high 12 bits,
    ///     `rand_b` its low 62.
    /// - Returns: The UUID, with version 7 and variant 0b10.
    static func uuid(milliseconds: UInt64, random: UInt128) -> UUID {
        let randA = UInt16(truncatingIfNeeded: random >> 62) & 0x0FFF
        let randB = UInt64(truncatingIfNeeded: random) & 0x3FFF_FFFF_FFFF_FFFF
        let t = milliseconds
        return UUID(uuid: (
            UInt8(truncatingIfNeeded: t >> 40), UInt8(truncatingIfNeeded: t >> 32),
            UInt8(truncatingIfNeeded: t >> 24), UInt8(truncatingIfNeeded: t >> 16),
            UInt8(truncatingIfNeeded: t >> 8), UInt8(truncatingIfNeeded: t),
            0x70 | UInt8(truncatingIfNeeded: randA >> 8), UInt8(truncatingIfNeeded: randA),
            0x80 | UInt8(truncatingIfNeeded: randB >> 56), UInt8(truncatingIfNeeded: randB >> 48),
            UInt8(truncatingIfNeeded: randB >> 40), UInt8(truncatingIfNeeded: randB >> 32),
            UInt8(truncatingIfNeeded: randB >> 24), UInt8(truncatingIfNeeded: randB >> 16),
            UInt8(truncatingIfNeeded: randB >> 8), UInt8(truncatingIfNeeded: randB)
        ))
    }
}
