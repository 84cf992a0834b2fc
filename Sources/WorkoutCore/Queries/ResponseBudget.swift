package import SwiftProtobuf
import WorkoutProtocol

/// What one reply may still take, in encoded bytes: a page of a query, a chunk of an export
/// or an event of a watch ends where the next record would not fit, so every answer fits the
/// frame size the client announced (PROTOCOL.md, "Answers that fit a frame").
///
/// The budget starts with the bytes already spent on the reply's fixed part (its header
/// fields and, for a paged query, room for the next page token). The first record is always
/// admitted, so a page always moves on; that is safe because every record the store keeps is
/// bounded well below the smallest frame a client may announce
/// (``HandshakeLimits/allowedFrameSizes``).
package struct ResponseBudget: Sendable {
    /// The most a reply may take when the client allows more: 4 MiB, the protocol's default
    /// frame size, so one answer never holds more of the server's memory than that.
    package static let largestReply = HandshakeLimits.defaultMaxFrameSize

    /// The room kept for a `next_page_token` field: a one-byte tag, a two-byte length and the
    /// longest token a query accepts back (256 bytes).
    package static let pageTokenReserve = 1 + 2 + 256

    /// The most the reply may take.
    package let maxBytes: Int
    /// The reply's encoded size so far.
    package private(set) var used: Int
    /// Whether a record has been admitted.
    package private(set) var holdsRecords = false

    /// A budget for one reply.
    ///
    /// - Parameters:
    ///   - maxBytes: The client's max frame size (clamped to ``largestReply``).
    ///   - used: The bytes the reply's fixed part takes.
    package init(maxBytes: Int, used: Int = 0) {
        self.maxBytes = min(maxBytes, Self.largestReply)
        self.used = used
    }

    /// Counts in one element of a repeated message field (numbered below 16) whose encoding
    /// is `bytes` long, if it fits; the first always does.
    ///
    /// - Parameter bytes: The element's encoded size.
    /// - Returns: Whether it was counted in; `false` means the reply is full.
    package mutating func admit(encodedBytes bytes: Int) -> Bool {
        let cost = Self.repeatedFieldBytes(bytes)
        if holdsRecords && used + cost > maxBytes { return false }
        used += cost
        holdsRecords = true
        return true
    }

    /// Counts in `record` as one element of a repeated message field, if it fits.
    ///
    /// - Parameter record: The record.
    /// - Returns: Whether it was counted in.
    /// - Throws: What encoding the record throws.
    package mutating func admit(_ record: some SwiftProtobuf.Message) throws -> Bool {
        admit(encodedBytes: try Self.encodedSize(of: record))
    }

    /// The encoded size of `message` in bytes.
    package static func encodedSize(of message: some SwiftProtobuf.Message) throws -> Int {
        (try message.serializedBytes() as [UInt8]).count
    }

    /// What one element of `bytes` encoded bytes adds to a repeated message field numbered
    /// below 16: a one-byte tag, the length as a varint, and the element.
    package static func repeatedFieldBytes(_ bytes: Int) -> Int {
        var lengthBytes = 1
        var rest = bytes >> 7
        while rest > 0 {
            lengthBytes += 1
            rest >>= 7
        }
        return 1 + lengthBytes + bytes
    }
}
