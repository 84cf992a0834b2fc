import ArgumentParser
import Foundation

/// A profile value given on the command line that can also be cleared: a value, or `none`.
enum Setting<Value: Sendable>: Sendable {
    /// Set it to this value.
    case set(Value)
    /// Clear it (not stated).
    case clear

    /// The value as ``ProfileUpdate`` wants it: `.some(nil)` clears.
    var value: Value? {
        switch self {
        case .set(let value): value
        case .clear: nil
        }
    }

    /// A parser of `none` or a value.
    ///
    /// - Parameter parse: Parses a value; `nil` when the text is not one.
    /// - Returns: A transform for `@Option`.
    static func parse(_ parse: @escaping @Sendable (String) -> Value?) -> @Sendable (String) throws -> Setting {
        { text in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased() == "none" { return .clear }
            guard let value = parse(trimmed) else { throw ValidationError("expected a number, or none to clear it") }
            return .set(value)
        }
    }
}
