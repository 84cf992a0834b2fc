// Ids on the wire are `bytes` of exactly 16 bytes, a UUID in network order (PROTOCOL.md,
// "Conventions"); in this library they are `Foundation.UUID`s.
//
// Conversions never throw. Bytes that are not exactly 16 long (never sent by a correct
// server) become the all-zero UUID, 00000000-0000-0000-0000-000000000000, which the
// protocol reserves as invalid, so such an id is recognisable and any request naming it
// is refused with INVALID_ARGUMENT. Optional ids (`Invite.used_by`) are empty when unset
// and become `nil`.

import Foundation

extension UUID {
    /// The all-zero UUID, which the protocol reserves as invalid; malformed wire ids map to it.
    static let wireInvalid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Creates the UUID that 16 wire bytes hold, or the all-zero UUID when there are not
    /// exactly 16.
    ///
    /// - Parameter bytes: The id as on the wire, in network order.
    init(wireBytes bytes: Data) {
        guard bytes.count == 16 else {
            self = .wireInvalid
            return
        }
        let b = [UInt8](bytes)
        self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                         b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// Creates the UUID of an optional wire id: `nil` when the bytes are empty (not set),
    /// else as ``init(wireBytes:)``.
    ///
    /// - Parameter bytes: The id as on the wire, or empty.
    init?(wireBytesUnlessEmpty bytes: Data) {
        guard !bytes.isEmpty else { return nil }
        self.init(wireBytes: bytes)
    }

    /// The 16 bytes of this UUID in network order, as the wire carries ids.
    var wireBytes: Data {
        withUnsafeBytes(of: uuid) { Data($0) }
    }
}

extension Optional where Wrapped == UUID {
    /// The wire form of an optional id: its 16 bytes, or empty when `nil`.
    var wireBytes: Data {
        self?.wireBytes ?? Data()
    }
}
