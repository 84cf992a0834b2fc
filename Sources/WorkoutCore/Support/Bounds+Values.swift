import WorkoutRules

/// Validators that hand the checked value back, for assignments.
extension Bounds {
    /// `value` after ``Bounds/text(_:field:bytes:allowControlCharacters:)`` accepted it.
    static func validText(_ value: String, field: String, bytes: ClosedRange<Int>) throws(DomainError) -> String {
        try text(value, field: field, bytes: bytes)
        return value
    }

    /// `value` after ``Bounds/number(_:field:range:allowZeroAsUnset:)`` accepted it.
    static func validNumber(_ value: Double, field: String, range: ClosedRange<Double>, allowZeroAsUnset: Bool = false) throws(DomainError) -> Double {
        try number(value, field: field, range: range, allowZeroAsUnset: allowZeroAsUnset)
        return value
    }

    /// `value` after ``Bounds/integer(_:field:range:allowZeroAsUnset:)`` accepted it.
    static func validInteger<T: BinaryInteger>(_ value: T, field: String, range: ClosedRange<T>, allowZeroAsUnset: Bool = false) throws(DomainError) -> T {
        try integer(value, field: field, range: range, allowZeroAsUnset: allowZeroAsUnset)
        return value
    }
}
