extension FrameHeader {
    /// Checks a received header against the protocol's rules, before its payload is
    /// buffered.
    ///
    /// The checks run in this order, and the first that fails is thrown:
    /// 1. reserved field zero;
    /// 2. known type;
    /// 3. a type the receiving side may get;
    /// 4. no reserved flag bits;
    /// 5. flags that fit the type (COMPRESSED on REQUEST, RESPONSE, STREAM_MESSAGE,
    ///    STREAM_END, GOAWAY; DEADLINE on REQUEST);
    /// 6. call id nonzero on REQUEST, RESPONSE, STREAM_MESSAGE, STREAM_END, CANCEL;
    ///    zero on HELLO, PING, PONG (GOAWAY: any);
    /// 7. code zero on HELLO, STREAM_MESSAGE, CANCEL, PING, PONG;
    /// 8. length over the limit (RESOURCE_EXHAUSTED);
    /// 9. length fitting the type: PING and PONG exactly 8, CANCEL 0, at least 4 with DEADLINE.
    ///
    /// - Parameters:
    ///   - role: The receiving side.
    ///   - maxPayloadSize: The receiver's current payload limit in bytes.
    /// - Throws: ``ProtocolError`` naming the first rule broken.
    package func validate(receivedBy role: FrameDecoder.Role, maxPayloadSize: Int) throws(ProtocolError) {
        if reserved != 0 {
            throw ProtocolError(
                .reservedFieldNonzero, "frame header reserved field is \(reserved), must be 0")
        }
        guard type.isKnown else {
            throw ProtocolError(.unknownFrameType, "unknown frame type \(type.rawValue) (\(type))")
        }
        guard type.mayBeReceived(by: role) else {
            let sender = role == .server ? "a client" : "a server"
            throw ProtocolError(.unexpectedFrameType, "\(type) frames may not be sent by \(sender)")
        }
        if !flags.reserved.isEmpty {
            throw ProtocolError(
                .reservedFlags, "reserved flag bits 0x\(hex(flags.reserved.rawValue)) set on \(type) frame")
        }
        if flags.contains(.compressed) && !type.allowsCompression {
            throw ProtocolError(.flagNotAllowed, "COMPRESSED flag not allowed on \(type) frame")
        }
        if flags.contains(.deadline) && type != .request {
            throw ProtocolError(.flagNotAllowed, "DEADLINE flag not allowed on \(type) frame")
        }
        if type.namesCall {
            if callID == 0 {
                throw ProtocolError(.invalidCallID, "\(type) frame with call id 0")
            }
        } else if type != .goAway && callID != 0 {
            throw ProtocolError(.invalidCallID, "\(type) frame with call id \(callID), must be 0")
        }
        if !type.carriesCode && code != 0 {
            throw ProtocolError(.codeNotZero, "\(type) frame with code \(code), must be 0")
        }
        if type == .request && code == 0 {
            throw ProtocolError(.missingMethod, "REQUEST frame with method number 0")
        }
        if UInt64(length) > UInt64(maxPayloadSize) {
            throw ProtocolError(
                .frameTooLarge,
                "\(type) frame payload of \(length) bytes exceeds the limit of \(maxPayloadSize) bytes")
        }
        if (type == .ping || type == .pong) && length != 8 {
            throw ProtocolError(.invalidPayloadLength, "\(type) payload is \(length) bytes, must be 8")
        }
        if type == .cancel && length != 0 {
            throw ProtocolError(.invalidPayloadLength, "CANCEL payload is \(length) bytes, must be empty")
        }
        if flags.contains(.deadline) && length < 4 {
            throw ProtocolError(
                .invalidPayloadLength,
                "REQUEST with DEADLINE flag has \(length) payload bytes, needs at least 4")
        }
    }
}
