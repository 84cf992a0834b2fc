extension WorkoutError {
    /// This error in the terms of the Swift call that failed: the field at fault as the call's
    /// argument and property path (``field``; the wire path kept in ``wireField``), and the
    /// message naming the same, the Swift method instead of the wire method, and times as
    /// seconds and dates instead of milliseconds (``SwiftTimeWords``).
    ///
    /// - Parameters:
    ///   - method: The wire method's catalog name, e.g. `Logging.LogWorkout`.
    ///   - call: The Swift method, e.g. `logWorkout(_:)`.
    /// - Returns: The translated error.
    func inSwiftTerms(method: String, call: String) -> WorkoutError {
        var error = self
        if let wire = wireField ?? field, !wire.isEmpty {
            let swift = SwiftFieldNames.swiftPath(of: wire, method: method)
            error.wireField = wire
            error.field = swift
            error.message = SwiftFieldNames.replacingWholeOccurrences(of: wire, with: swift, in: error.message)
        }
        error.message = SwiftFieldNames.replacingWholeOccurrences(of: method, with: call, in: error.message)
        error.message = SwiftTimeWords.rewriting(error.message)
        return error
    }
}
