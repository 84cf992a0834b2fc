/// A range of encoded keys, each end inclusive, exclusive or open.
package struct KeyRange: Sendable, Hashable {
    /// One end of a range.
    package enum Bound: Sendable, Hashable {
        /// No limit on this side.
        case unbounded
        /// Keys equal to these bytes are in the range.
        case inclusive([UInt8])
        /// Keys equal to these bytes are not in the range.
        case exclusive([UInt8])
    }

    /// The lower end.
    package var lower: Bound
    /// The upper end.
    package var upper: Bound

    /// A range from `lower` to `upper`.
    package init(lower: Bound, upper: Bound) {
        self.lower = lower
        self.upper = upper
    }

    /// Every key.
    package static let all = KeyRange(lower: .unbounded, upper: .unbounded)

    /// Keys from `start` (inclusive) up to `end` (exclusive): the half-open range `[start, end)`.
    package static func halfOpen(_ start: OrderedKey, _ end: OrderedKey) -> KeyRange {
        KeyRange(lower: .inclusive(start.bytes), upper: .exclusive(end.bytes))
    }

    /// Every key that begins with `prefix`'s bytes: all tuples that share these leading components.
    package static func prefix(_ prefix: OrderedKey) -> KeyRange {
        KeyRange(lower: .inclusive(prefix.bytes), upper: successor(ofPrefix: prefix.bytes).map { .exclusive($0) } ?? .unbounded)
    }

    /// The smallest byte string greater than every string starting with `prefix`, or `nil`
    /// when there is none (the prefix is empty or all 0xFF).
    static func successor(ofPrefix prefix: [UInt8]) -> [UInt8]? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }

    /// Whether `key` is at or above the lower end.
    package func isAboveLower(_ key: UnsafeRawBufferPointer) -> Bool {
        switch lower {
        case .unbounded: true
        case .inclusive(let bound): !key.lexicographicallyPrecedes(bound)
        case .exclusive(let bound): bound.lexicographicallyPrecedes(key)
        }
    }

    /// Whether `key` is at or below the upper end.
    package func isBelowUpper(_ key: UnsafeRawBufferPointer) -> Bool {
        switch upper {
        case .unbounded: true
        case .inclusive(let bound): !bound.lexicographicallyPrecedes(key)
        case .exclusive(let bound): key.lexicographicallyPrecedes(bound)
        }
    }

    /// Whether `key` lies in the range.
    package func contains(_ key: [UInt8]) -> Bool {
        key.withUnsafeBytes { isAboveLower($0) && isBelowUpper($0) }
    }
}
