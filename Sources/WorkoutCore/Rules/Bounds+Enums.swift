package import SwiftProtobuf
package import WorkoutRules

extension Bounds {
    /// Checks that an enum field holds one of the values this server knows.
    ///
    /// proto3 enums are open: a value the generated code does not know arrives as
    /// `.UNRECOGNIZED(n)` and would otherwise be stored and echoed back as it came.
    ///
    /// - Parameters:
    ///   - value: The field's value.
    ///   - field: The field's path, e.g. `profile.fitness_goal`.
    ///   - allowUnspecified: Whether 0 (`*_UNSPECIFIED`: "not stated") is accepted.
    /// - Throws: `DomainError.invalid(field, …)` naming the value and the known ones.
    package static func known<Value: SwiftProtobuf.Enum & CaseIterable>(
        _ value: Value, field: String, allowUnspecified: Bool
    ) throws(DomainError) {
        let isKnown = Value.allCases.contains(value)
        if isKnown && (allowUnspecified || value.rawValue != 0) { return }
        let allowed = Value.allCases.map(\.rawValue).filter { allowUnspecified || $0 != 0 }.sorted()
        let list = allowed.map(String.init).joined(separator: ", ")
        throw DomainError.invalid(field, "\(field) must be one of \(list) (got \(value.rawValue))")
    }
}
