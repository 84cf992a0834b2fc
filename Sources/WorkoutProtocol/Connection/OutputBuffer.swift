/// The bytes a connection has produced and the socket has not yet taken.
///
/// Frames are appended at the end; the driver writes from ``withUnreadBytes(_:)`` and
/// reports what the socket took with ``consume(_:)``. The connection machines own one and
/// decide backpressure from ``count``.
package struct OutputBuffer: Sendable {
    /// The bytes, of which those before `offset` are written already.
    @usableFromInline package private(set) var bytes: [UInt8] = []
    @usableFromInline var offset = 0
    /// Past this capacity an emptied buffer gives its memory back.
    @usableFromInline static let retainedCapacity = 1 << 20

    /// An empty buffer.
    package init() {}

    /// The bytes waiting for the socket.
    @inlinable package var count: Int { bytes.count - offset }

    /// Whether nothing waits.
    @inlinable package var isEmpty: Bool { offset == bytes.count }

    /// Appends through `body` (an encoder writing frames).
    @inlinable package mutating func append<R, E: Error>(_ body: (inout [UInt8]) throws(E) -> R) throws(E) -> R {
        try body(&bytes)
    }

    /// Runs `body` with the bytes waiting for the socket.
    @inlinable package func withUnreadBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = offset
        return try bytes.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[start...])) }
    }

    /// Marks `written` bytes as taken by the socket.
    @inlinable package mutating func consume(_ written: Int) {
        precondition(written >= 0 && written <= count, "consumed more than was buffered")
        offset += written
        if offset == bytes.count {
            offset = 0
            if bytes.capacity > Self.retainedCapacity { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
        }
    }

    /// Drops everything (the connection closed).
    package mutating func discard() {
        bytes = []
        offset = 0
    }
}
