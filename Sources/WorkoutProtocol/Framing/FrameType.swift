/// The `type` byte of a frame header (offset 4).
///
/// A struct over the raw byte, so that a header with an unknown type can still be
/// decoded, reported and round-tripped; ``isKnown`` tells whether the protocol defines it.
package struct FrameType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The byte on the wire.
    package let rawValue: UInt8

    /// Wraps a byte from the wire; every byte is accepted.
    ///
    /// - Parameter rawValue: The type byte.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 1: the first frame each side sends after the prefaces (call id 0).
    package static let hello = FrameType(rawValue: 1)
    /// 2: client → server, starts a call; `code` is the method number.
    package static let request = FrameType(rawValue: 2)
    /// 3: server → client, ends a unary call; `code` is the status.
    package static let response = FrameType(rawValue: 3)
    /// 4: server → client, one message of a server stream.
    package static let streamMessage = FrameType(rawValue: 4)
    /// 5: server → client, ends a server stream; `code` is the status.
    package static let streamEnd = FrameType(rawValue: 5)
    /// 6: client → server, cancels a call; empty payload.
    package static let cancel = FrameType(rawValue: 6)
    /// 7: either way, keepalive; payload exactly 8 opaque bytes, call id 0.
    package static let ping = FrameType(rawValue: 7)
    /// 8: either way, answers a PING with its 8 bytes; call id 0.
    package static let pong = FrameType(rawValue: 8)
    /// 9: either way, the sender is closing; `code` is the status, the call id the last
    /// call the sender will finish.
    package static let goAway = FrameType(rawValue: 9)

    /// Whether the protocol defines this type (1 through 9).
    package var isKnown: Bool {
        rawValue >= 1 && rawValue <= 9
    }

    /// Whether a frame of this type names a call (its call id must be nonzero).
    package var namesCall: Bool {
        switch self {
        case .request, .response, .streamMessage, .streamEnd, .cancel: return true
        default: return false
        }
    }

    /// Whether the header's `code` field carries a value (method number or status) for this type.
    package var carriesCode: Bool {
        switch self {
        case .request, .response, .streamEnd, .goAway: return true
        default: return false
        }
    }

    /// Whether a body of this type may be compressed.
    package var allowsCompression: Bool {
        switch self {
        case .request, .response, .streamMessage: return true
        default: return false
        }
    }

    /// Whether a frame of this type may be received by the given side.
    ///
    /// - Parameter role: The receiving side.
    /// - Returns: `false` for frames only the receiver itself may send.
    package func mayBeReceived(by role: FrameDecoder.Role) -> Bool {
        switch self {
        case .hello, .ping, .pong: return true
        case .request, .cancel: return role == .server
        case .response, .streamMessage, .streamEnd, .goAway: return role == .client
        default: return false
        }
    }

    /// The protocol's name for the type, e.g. `"STREAM_END"`, or `"0x2A"` for an unknown one.
    package var description: String {
        switch self {
        case .hello: return "HELLO"
        case .request: return "REQUEST"
        case .response: return "RESPONSE"
        case .streamMessage: return "STREAM_MESSAGE"
        case .streamEnd: return "STREAM_END"
        case .cancel: return "CANCEL"
        case .ping: return "PING"
        case .pong: return "PONG"
        case .goAway: return "GOAWAY"
        default: return "0x" + hex(rawValue)
        }
    }
}

/// Two uppercase hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
