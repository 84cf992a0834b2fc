import WorkoutRules

/// A count, age, size or span the caller gave, checked before it becomes an unsigned wire
/// field. On the wire 0 means "not stated" or "the server's default", so clamping a negative
/// value into the field would silently turn it into something else: a value outside the range is
/// refused instead, in the caller's words, with the same message the server gives for its bounds.
enum WireCount {
    /// The value as the wire's `uint32`, or the refusal.
    ///
    /// - Parameters:
    ///   - value: What the caller gave.
    ///   - field: Its name in Swift terms (the argument or property), e.g. `pageSize`.
    ///   - wireField: Its path in the request message, e.g. `page_size`.
    ///   - range: The values the call takes.
    ///   - unit: What the value counts, for the message (`seconds`), or empty.
    /// - Returns: The value, unchanged.
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the field, when `value` is outside
    ///   `range` or does not fit 32 bits.
    static func check(_ value: Int, field: String, wireField: String, range: ClosedRange<Int>, unit: String = "") throws(WorkoutError) -> UInt32 {
        guard range.contains(value), let count = UInt32(exactly: value) else {
            let suffix = unit.isEmpty ? "" : " " + unit
            throw WorkoutError(
                code: .invalidArgument,
                message: "\(field) must be between \(range.lowerBound) and \(range.upperBound)\(suffix) (got \(value)\(suffix))",
                field: field, wireField: wireField)
        }
        return count
    }

    /// The value as the wire's `uint32`, exactly, or the refusal: for a field whose bounds the
    /// call has already checked (``RecordChecks``), so a value that would not fit is refused by
    /// name rather than clamped into another value.
    ///
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the field, when `value` is negative
    ///   or above 4,294,967,295.
    static func exact(_ value: Int, field: String, wireField: String) throws(WorkoutError) -> UInt32 {
        try check(value, field: field, wireField: wireField, range: 0...Int(UInt32.max))
    }
}
