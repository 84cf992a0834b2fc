import Testing
@testable import WorkoutProtocol

@Suite("Status codes")
struct StatusCodeTests {
    @Test(
        "Each canonical status has gRPC's number and name",
        arguments: [
            (StatusCode.ok, 0, "OK"), (.cancelled, 1, "CANCELLED"), (.unknown, 2, "UNKNOWN"),
            (.invalidArgument, 3, "INVALID_ARGUMENT"), (.deadlineExceeded, 4, "DEADLINE_EXCEEDED"),
            (.notFound, 5, "NOT_FOUND"), (.alreadyExists, 6, "ALREADY_EXISTS"),
            (.permissionDenied, 7, "PERMISSION_DENIED"), (.resourceExhausted, 8, "RESOURCE_EXHAUSTED"),
            (.failedPrecondition, 9, "FAILED_PRECONDITION"), (.aborted, 10, "ABORTED"),
            (.outOfRange, 11, "OUT_OF_RANGE"), (.unimplemented, 12, "UNIMPLEMENTED"),
            (.internal, 13, "INTERNAL"), (.unavailable, 14, "UNAVAILABLE"), (.dataLoss, 15, "DATA_LOSS"),
            (.unauthenticated, 16, "UNAUTHENTICATED"),
        ] as [(StatusCode, UInt32, String)]
    )
    func canonicalNumbering(status: StatusCode, number: UInt32, name: String) {
        #expect(status.rawValue == number)
        #expect(status.name == name)
        #expect(status.description == name)
        #expect(status.isKnown)
        #expect(status.canonical == status)
        #expect(StatusCode(rawValue: number) == status)
    }

    @Test("All known statuses are listed once, in order")
    func allKnown() {
        #expect(StatusCode.allKnown.map(\.rawValue) == Array(0...16))
    }

    @Test("An unknown number behaves as UNKNOWN but keeps printing its number", arguments: [17, 42, UInt32.max])
    func unknownNumber(number: UInt32) {
        let status = StatusCode(rawValue: number)
        #expect(!status.isKnown)
        #expect(status.canonical == .unknown)
        #expect(status.name == "UNKNOWN")
        #expect(status.description == "UNKNOWN(\(number))")
        #expect(status.rawValue == number)
    }

    @Test("An RPC error prints its status and message")
    func rpcErrorDescription() {
        #expect(RPCError(code: .notFound, message: "no such workout").description == "NOT_FOUND: no such workout")
        #expect(RPCError(code: .ok, message: "").description == "OK")
    }

    @Test(
        "Each protocol error code maps to its wire status",
        arguments: [
            (ProtocolError.Code.badMagic, StatusCode.invalidArgument),
            (.invalidPreface, .invalidArgument), (.unsupportedVersion, .failedPrecondition),
            (.frameTooLarge, .resourceExhausted), (.unknownFrameType, .invalidArgument),
            (.reservedFlags, .invalidArgument), (.reservedFieldNonzero, .invalidArgument),
            (.flagNotAllowed, .invalidArgument), (.codeNotZero, .invalidArgument),
            (.invalidCallID, .invalidArgument), (.invalidPayloadLength, .invalidArgument),
            (.unexpectedFrameType, .invalidArgument), (.unexpectedHello, .invalidArgument),
            (.callIDNotIncreasing, .invalidArgument), (.decompressedTooLarge, .resourceExhausted),
            (.malformedCompressedBody, .invalidArgument), (.messageTooLarge, .resourceExhausted),
            (.invalidLimits, .invalidArgument),
        ] as [(ProtocolError.Code, StatusCode)]
    )
    func protocolErrorStatus(code: ProtocolError.Code, status: StatusCode) {
        let error = ProtocolError(code, "details")
        #expect(error.status == status)
        #expect(error.rpcError == RPCError(code: status, message: "details"))
    }
}
