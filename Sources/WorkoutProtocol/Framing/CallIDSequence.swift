/// The call ids of one connection: nonzero and strictly increasing, chosen by the client.
///
/// The client takes ids with ``next()``; the server checks each REQUEST's id with
/// ``accept(_:)``. (The frame decoder checks only that a call id is nonzero.)
package struct CallIDSequence: Hashable, Sendable {
    /// The last id taken or accepted; 0 before the first.
    package private(set) var last: UInt32 = 0

    /// Makes a sequence that has seen no call.
    package init() {}

    /// Takes the next id (client side).
    ///
    /// - Returns: The id, or `nil` when all 2³²−1 ids are used (open a new connection).
    package mutating func next() -> UInt32? {
        guard last < UInt32.max else { return nil }
        last += 1
        return last
    }

    /// Checks a new call's id (server side) and records it.
    ///
    /// - Parameter id: The REQUEST frame's call id.
    /// - Throws: ``ProtocolError`` `.callIDNotIncreasing` unless `id` is above the last one.
    package mutating func accept(_ id: UInt32) throws(ProtocolError) {
        guard id > last else {
            throw ProtocolError(
                .callIDNotIncreasing, "call id \(id) is not above the previous call id \(last)")
        }
        last = id
    }
}
