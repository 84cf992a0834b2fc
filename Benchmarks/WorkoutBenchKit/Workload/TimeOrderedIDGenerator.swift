/// Record ids that sort by creation time: UUID version 7 (RFC 9562, section 5.7), so that a
/// member's records, keyed `(user, id)`, are inserted at the end of their key range.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                       unix_ts_ms (48 bits)                    |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      unix_ts_ms (cont.)       |  ver  |  counter (12 bits)    |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |var|                    random (62 bits)                       |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
///
/// The 12 bits after the version are a counter (RFC 9562's "fixed bit-length dedicated
/// counter", method 1): ids made in the same millisecond count up, and when the counter is
/// used up the timestamp moves on by one, so every id is greater than the one before.
package struct TimeOrderedIDGenerator: Sendable {
    private var lastMilliseconds: UInt64 = 0
    private var counter: UInt64 = 0
    private var random: FastRandom

    /// A generator whose random bits follow `seed`.
    package init(seed: UInt64) {
        random = FastRandom(seed: seed)
    }

    /// The next id, its timestamp at least `milliseconds` (ms since the Unix epoch).
    ///
    /// - Returns: The two big-endian 64-bit halves of the id.
    @inline(__always)
    package mutating func nextWords(milliseconds: UInt64) -> (UInt64, UInt64) {
        if milliseconds > lastMilliseconds {
            lastMilliseconds = milliseconds
            counter = 0
        } else {
            counter += 1
            if counter > 0xFFF {
                lastMilliseconds += 1
                counter = 0
            }
        }
        let high = (lastMilliseconds & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | counter
        let low = random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        return (high, low)
    }

    /// Writes the next id (timestamp at least `milliseconds`) into 16 bytes at `destination`.
    @inline(__always)
    package mutating func write(milliseconds: UInt64, to destination: UnsafeMutableRawPointer) {
        let (high, low) = nextWords(milliseconds: milliseconds)
        destination.storeBytes(of: high.bigEndian, as: UInt64.self)
        (destination + 8).storeBytes(of: low.bigEndian, as: UInt64.self)
    }

    /// The next id as 16 bytes, its timestamp at least `milliseconds` (or the last one used).
    package mutating func next(milliseconds: UInt64 = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeMutableBytes { write(milliseconds: milliseconds, to: $0.baseAddress!) }
        return bytes
    }
}
