/// The status of a finished call, with gRPC's canonical numbering.
///
/// Carried as a big-endian `u32` in the `code` field of RESPONSE, STREAM_END and GOAWAY
/// frame headers. The numbers are fixed forever. A number this library does not know
/// is kept as it is (so it can be logged and forwarded), but behaves as ``unknown``:
/// ``isKnown`` is `false`, ``canonical`` is ``unknown`` and ``name`` is `"UNKNOWN"`,
/// while ``description`` still prints the number.
public struct StatusCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number on the wire.
    public let rawValue: UInt32

    /// Wraps a number from the wire; every number is accepted.
    ///
    /// - Parameter rawValue: The status number.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// 0: success.
    public static let ok = StatusCode(rawValue: 0)
    /// 1: the call was cancelled, typically by the client.
    public static let cancelled = StatusCode(rawValue: 1)
    /// 2: an error that fits no other code, or a status number the receiver does not know.
    public static let unknown = StatusCode(rawValue: 2)
    /// 3: the request (or a frame) is malformed.
    public static let invalidArgument = StatusCode(rawValue: 3)
    /// 4: the deadline passed before the call finished.
    public static let deadlineExceeded = StatusCode(rawValue: 4)
    /// 5: the named entity does not exist.
    public static let notFound = StatusCode(rawValue: 5)
    /// 6: the entity to create already exists.
    public static let alreadyExists = StatusCode(rawValue: 6)
    /// 7: the caller may not do this.
    public static let permissionDenied = StatusCode(rawValue: 7)
    /// 8: a limit was exceeded (frame size, decompressed size, calls in flight, throttling).
    public static let resourceExhausted = StatusCode(rawValue: 8)
    /// 9: the system is not in the state the operation needs (e.g. no common protocol version).
    public static let failedPrecondition = StatusCode(rawValue: 9)
    /// 10: the operation was aborted, typically by a concurrency conflict.
    public static let aborted = StatusCode(rawValue: 10)
    /// 11: a value is past the valid range.
    public static let outOfRange = StatusCode(rawValue: 11)
    /// 12: the method is not implemented by this server.
    public static let unimplemented = StatusCode(rawValue: 12)
    /// 13: an invariant of the server broke.
    public static let `internal` = StatusCode(rawValue: 13)
    /// 14: the service is unavailable for now; retrying may succeed.
    public static let unavailable = StatusCode(rawValue: 14)
    /// 15: unrecoverable data loss or corruption.
    public static let dataLoss = StatusCode(rawValue: 15)
    /// 16: the call needs a valid session.
    public static let unauthenticated = StatusCode(rawValue: 16)

    /// Every status this library knows, in numeric order (0 through 16).
    public static let allKnown: [StatusCode] = (0...16).map { StatusCode(rawValue: $0) }

    private static let names: [String] = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED",
    ]

    /// Whether this library knows the number (0 through 16).
    public var isKnown: Bool {
        rawValue < UInt32(Self.names.count)
    }

    /// The status to act on: `self` when known, ``unknown`` otherwise.
    public var canonical: StatusCode {
        isKnown ? self : .unknown
    }

    /// The canonical name, e.g. `"NOT_FOUND"`; `"UNKNOWN"` for a number this library does not know.
    public var name: String {
        Self.names[Int(canonical.rawValue)]
    }

    /// The name, followed by the number when it is not a known one: `"NOT_FOUND"`, `"UNKNOWN(42)"`.
    public var description: String {
        isKnown ? name : "UNKNOWN(\(rawValue))"
    }
}
