import WorkoutProtocol

extension WorkoutError {
    /// The error a RESPONSE or STREAM_END with a nonzero code carries.
    init(code: StatusCode, statusBody: [UInt8]) {
        let status = (try? Workout_V1_RpcStatus(serializedBytes: statusBody)) ?? Workout_V1_RpcStatus()
        self.init(
            code: code.canonical,
            message: status.message,
            // The wire's path until the client names the call (``inSwiftTerms(method:call:)``).
            field: status.field.isEmpty ? nil : status.field,
            wireField: status.field.isEmpty ? nil : status.field,
            retryAfter: status.retryAfterMs == 0 ? nil : .milliseconds(Int64(status.retryAfterMs)))
    }
}
