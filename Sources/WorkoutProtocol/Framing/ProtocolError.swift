/// A violation of the wire protocol: a malformed preface or frame header, a frame the
/// receiving side must not get, a compressed body that does not inflate, or a limit
/// passed. One struct for the whole framing layer.
///
/// Each ``Code`` has a fixed wire ``status`` (most are `INVALID_ARGUMENT`; limits are
/// `RESOURCE_EXHAUSTED`; no common version is `FAILED_PRECONDITION`). A connection that
/// meets one sends a GOAWAY with that status and ``message``, then closes; a per-call
/// one (a body that does not inflate) fails only its call.
public struct ProtocolError: RPCErrorConvertible, Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can be compared and switched over without
    /// depending on the message. New codes may be added; match with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case badMagic
            case invalidPreface
            case unsupportedVersion
            case frameTooLarge
            case unknownFrameType
            case reservedFlags
            case reservedFieldNonzero
            case flagNotAllowed
            case codeNotZero
            case missingMethod
            case invalidCallID
            case invalidPayloadLength
            case unexpectedFrameType
            case unexpectedHello
            case callIDNotIncreasing
            case decompressedTooLarge
            case malformedCompressedBody
            case messageTooLarge
            case invalidLimits
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The preface does not start with `57 4B 52 50` ("WKRP"). Status INVALID_ARGUMENT.
        public static let badMagic = Code(.badMagic)
        /// The preface's reserved field is not zero, or its version range is not one the
        /// sender may send (min > max; a server preface with min ≠ max). Status INVALID_ARGUMENT.
        public static let invalidPreface = Code(.invalidPreface)
        /// The two sides speak no common protocol version. Status FAILED_PRECONDITION.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// A frame's payload length is over the receiver's limit. Status RESOURCE_EXHAUSTED.
        public static let frameTooLarge = Code(.frameTooLarge)
        /// The frame type is not one of 1...9. Status INVALID_ARGUMENT.
        public static let unknownFrameType = Code(.unknownFrameType)
        /// A flag bit other than COMPRESSED (0x01) and DEADLINE (0x02) is set. Status INVALID_ARGUMENT.
        public static let reservedFlags = Code(.reservedFlags)
        /// The header's reserved `u16` is not zero. Status INVALID_ARGUMENT.
        public static let reservedFieldNonzero = Code(.reservedFieldNonzero)
        /// A defined flag is set on a frame type it does not apply to. Status INVALID_ARGUMENT.
        public static let flagNotAllowed = Code(.flagNotAllowed)
        /// The `code` field is not zero on a type where it must be. Status INVALID_ARGUMENT.
        public static let codeNotZero = Code(.codeNotZero)
        /// A REQUEST frame whose code (the method number) is 0.
        public static let missingMethod = Code(.missingMethod)
        /// The call id is zero where a call is named, or nonzero on a connection-level frame.
        /// Status INVALID_ARGUMENT.
        public static let invalidCallID = Code(.invalidCallID)
        /// The payload length does not fit the type: PING/PONG not 8, CANCEL not empty,
        /// DEADLINE flag with fewer than 4 bytes. Status INVALID_ARGUMENT.
        public static let invalidPayloadLength = Code(.invalidPayloadLength)
        /// A frame type the receiving side must never get (a RESPONSE sent to a server, a
        /// REQUEST to a client), or anything but GOAWAY after a refusal. Status INVALID_ARGUMENT.
        public static let unexpectedFrameType = Code(.unexpectedFrameType)
        /// The first frame is not HELLO, or a second HELLO arrived. Status INVALID_ARGUMENT.
        public static let unexpectedHello = Code(.unexpectedHello)
        /// A new call's id is not greater than the previous one. Status INVALID_ARGUMENT.
        public static let callIDNotIncreasing = Code(.callIDNotIncreasing)
        /// A compressed body inflates past the cap. Status RESOURCE_EXHAUSTED.
        public static let decompressedTooLarge = Code(.decompressedTooLarge)
        /// A compressed body is not a complete zlib stream (garbage, truncated, trailing
        /// bytes, preset dictionary). Status INVALID_ARGUMENT.
        public static let malformedCompressedBody = Code(.malformedCompressedBody)
        /// An outgoing frame would be over the peer's limit. Status RESOURCE_EXHAUSTED.
        public static let messageTooLarge = Code(.messageTooLarge)
        /// A hello announced limits outside the allowed ranges. Status INVALID_ARGUMENT.
        public static let invalidLimits = Code(.invalidLimits)

        /// The status a connection or call fails with for this code.
        public var status: StatusCode {
            switch wrapped {
            case .frameTooLarge, .decompressedTooLarge, .messageTooLarge:
                return .resourceExhausted
            case .unsupportedVersion:
                return .failedPrecondition
            default:
                return .invalidArgument
            }
        }

        /// The code's name, e.g. `"frameTooLarge"`.
        public var description: String {
            wrapped.rawValue
        }
    }

    /// What went wrong.
    public var code: Code
    /// A readable explanation naming the offending values.
    public var message: String

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A readable explanation naming the offending values.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The wire status for this error.
    public var status: StatusCode {
        code.status
    }

    /// The error as the status and message a GOAWAY (or a failed call) carries.
    public var rpcError: RPCError {
        RPCError(code: status, message: message)
    }

    /// `"RESOURCE_EXHAUSTED (frameTooLarge): …"`.
    public var description: String {
        "\(status) (\(code)): \(message)"
    }
}
