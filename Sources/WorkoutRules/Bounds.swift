// Bounds: small validators for request fields.
//
// Every request field is bounded (PROTOCOL.md section 20). These validators check one
// field each and throw `DomainError.invalid(field, message)` with the field's path and
// a message stating the bound and what was received, e.g.
// `meal.items[3].calories must be between 0 and 10000 (got -5)`. Lengths are counted in
// UTF-8 bytes, as on the wire. "Control characters" are the Unicode general category
// Cc (U+0000–U+001F, U+007F–U+009F). Passwords are never echoed in messages, and text
// values are not either (they may be long); their lengths are.

package import Foundation

/// Validators for request fields; each throws `DomainError.invalid` naming the field.
package enum Bounds {
    /// The earliest event time accepted: 2000-01-01T00:00:00Z, in milliseconds.
    package static let earliestEventTime: Int64 = 946_684_800_000
    /// How far past the server's clock an event time may lie: one day, in milliseconds.
    package static let eventTimeLeeway: Int64 = 86_400_000

    /// Checks a text field's length in UTF-8 bytes and, unless allowed, that it has no
    /// control characters.
    ///
    /// - Parameters:
    ///   - value: The text.
    ///   - field: The field's path, e.g. `first_name`.
    ///   - bytes: The allowed length in UTF-8 bytes, e.g. `1...64`.
    ///   - allowControlCharacters: Whether control characters (category Cc, including
    ///     newlines and tabs) are allowed.
    /// - Throws: `DomainError.invalid(field, …)` when the length is outside `bytes` or a
    ///   control character is present where not allowed.
    package static func text(_ value: String, field: String, bytes: ClosedRange<Int>, allowControlCharacters: Bool = false) throws(DomainError) {
        let count = value.utf8.count
        guard bytes.contains(count) else {
            throw .invalid(field, "\(field) must be \(describe(bytes)) bytes long (got \(count) bytes)")
        }
        if !allowControlCharacters, let scalar = firstControlCharacter(in: value) {
            throw .invalid(field, "\(field) must not contain control characters (found \(codePoint(scalar)))")
        }
    }

    /// Checks a floating-point field: finite and within a range, or (when allowed) 0
    /// meaning "not stated".
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - field: The field's path, e.g. `meal.items[3].calories`.
    ///   - range: The allowed values.
    ///   - allowZeroAsUnset: Whether 0 is also accepted, meaning "not stated".
    /// - Throws: `DomainError.invalid(field, …)` for NaN, ±infinity, or a value outside
    ///   the range (and not an allowed 0).
    package static func number(_ value: Double, field: String, range: ClosedRange<Double>, allowZeroAsUnset: Bool = false) throws(DomainError) {
        guard value.isFinite else {
            throw .invalid(field, "\(field) must be a finite number \(describe(range, zeroAsUnset: allowZeroAsUnset)) (got \(value))")
        }
        if allowZeroAsUnset && value == 0 { return }
        guard range.contains(value) else {
            throw .invalid(field, "\(field) must be \(describe(range, zeroAsUnset: allowZeroAsUnset)) (got \(format(value)))")
        }
    }

    /// Checks an integer field: within a range, or (when allowed) 0 meaning "not
    /// stated".
    ///
    /// - Parameters:
    ///   - value: The integer.
    ///   - field: The field's path, e.g. `workout.duration_seconds`.
    ///   - range: The allowed values.
    ///   - allowZeroAsUnset: Whether 0 is also accepted, meaning "not stated".
    /// - Throws: `DomainError.invalid(field, …)` for a value outside the range (and not
    ///   an allowed 0).
    package static func integer<T: BinaryInteger>(_ value: T, field: String, range: ClosedRange<T>, allowZeroAsUnset: Bool = false) throws(DomainError) {
        if allowZeroAsUnset && value == 0 { return }
        guard range.contains(value) else {
            let bound = "between \(range.lowerBound) and \(range.upperBound)"
            throw .invalid(field, "\(field) must be \(allowZeroAsUnset ? "0 (not stated) or " : "")\(bound) (got \(value))")
        }
    }

    /// Checks the length of a bytes field, e.g. `session_token` (exactly 32) or
    /// `page_token` (0...256).
    ///
    /// - Parameters:
    ///   - value: The bytes.
    ///   - field: The field's path.
    ///   - range: The allowed length.
    /// - Throws: `DomainError.invalid(field, …)` when the length is outside `range`.
    package static func byteCount(_ value: some Collection<UInt8>, field: String, range: ClosedRange<Int>) throws(DomainError) {
        guard range.contains(value.count) else {
            throw .invalid(field, "\(field) must be \(describe(range)) bytes long (got \(value.count) bytes)")
        }
    }

    /// Checks a record id (or session, invite or user id) and converts it.
    ///
    /// - Parameters:
    ///   - bytes: The id's bytes (`[UInt8]` or `Data`).
    ///   - field: The field's path, e.g. `workout.id`.
    /// - Returns: The id as a UUID, bytes in order.
    /// - Throws: `DomainError.invalid(field, …)` unless exactly 16 bytes, not all zero.
    package static func recordID(_ bytes: some Collection<UInt8>, field: String) throws(DomainError) -> UUID {
        let array = Array(bytes)
        guard array.count == 16 else {
            throw .invalid(field, "\(field) must be exactly 16 bytes long (got \(array.count) bytes)")
        }
        guard array.contains(where: { $0 != 0 }) else {
            throw .invalid(field, "\(field) must not be all zero bytes")
        }
        return UUID(uuid: (array[0], array[1], array[2], array[3], array[4], array[5], array[6], array[7],
                           array[8], array[9], array[10], array[11], array[12], array[13], array[14], array[15]))
    }

    /// Checks an event time (when a workout was performed, a meal eaten, a weight
    /// measured, steps reported): from 2000-01-01T00:00:00Z to one day past the
    /// server's clock.
    ///
    /// - Parameters:
    ///   - milliseconds: The instant, in milliseconds since 1970-01-01T00:00:00Z.
    ///   - field: The field's path, e.g. `workout.performed_at_ms`.
    ///   - now: The server's current time, in milliseconds since 1970.
    /// - Throws: `DomainError.invalid(field, …)` when the instant is outside the bounds.
    package static func eventTime(_ milliseconds: Int64, field: String, now: Int64) throws(DomainError) {
        let latest = now + eventTimeLeeway
        guard milliseconds >= earliestEventTime, milliseconds <= latest else {
            throw .invalid(field, "\(field) must be between \(earliestEventTime) (2000-01-01T00:00:00Z) and \(latest) (server time + 1 day), in milliseconds since 1970 (got \(milliseconds))")
        }
    }

    /// Checks an optional time range of a query (`from_ms`, `to_ms`): each 0 (unbounded)
    /// or a valid event time, and `from < to` when both are set.
    ///
    /// - Parameters:
    ///   - from: The inclusive start, or 0 for unbounded.
    ///   - to: The exclusive end, or 0 for unbounded.
    ///   - fromField: The start field's path, e.g. `from_ms`.
    ///   - toField: The end field's path, e.g. `to_ms`.
    ///   - now: The server's current time, in milliseconds since 1970.
    /// - Returns: The bounds, `nil` where unbounded.
    /// - Throws: `DomainError.invalid` naming the offending field.
    package static func timeRange(from: Int64, to: Int64, fromField: String, toField: String, now: Int64) throws(DomainError) -> (from: Int64?, to: Int64?) {
        if from != 0 { try eventTime(from, field: fromField, now: now) }
        if to != 0 { try eventTime(to, field: toField, now: now) }
        if from != 0, to != 0, from >= to {
            throw .invalid(toField, "\(toField) must be after \(fromField) (got \(fromField) = \(from), \(toField) = \(to))")
        }
        return (from == 0 ? nil : from, to == 0 ? nil : to)
    }

    /// Checks that a day is not after a latest allowed day (`StepsReport.day` may be at
    /// most the server's current UTC date + 1 day). The day itself is already a valid
    /// `LocalDay` (see `LocalDay.init(validating:month:day:field:)`).
    ///
    /// - Parameters:
    ///   - day: The day.
    ///   - field: The field's path, e.g. `report.day`.
    ///   - latest: The latest day allowed.
    /// - Throws: `DomainError.invalid(field, …)` when `day` is after `latest`.
    package static func day(_ day: LocalDay, field: String, latest: LocalDay) throws(DomainError) {
        guard day <= latest else {
            throw .invalid(field, "\(field) must be on or before \(latest) (got \(day))")
        }
    }

    /// Checks an email address and returns the form used to compare addresses.
    ///
    /// Accepted: 3...254 bytes, exactly one `@` with text on both sides, no whitespace
    /// (surrounding spaces are rejected, not trimmed) and no control characters.
    ///
    /// - Parameters:
    ///   - value: The address as sent.
    ///   - field: The field's path, e.g. `email`.
    /// - Returns: The address lowercased (Unicode-aware, locale-independent): the key for
    ///   uniqueness and lookup. Callers may keep the original for display.
    /// - Throws: `DomainError.invalid(field, …)` when any rule is broken.
    package static func email(_ value: String, field: String) throws(DomainError) -> String {
        let count = value.utf8.count
        guard (3...254).contains(count) else {
            throw .invalid(field, "\(field) must be 3 to 254 bytes long (got \(count) bytes)")
        }
        if let scalar = firstControlCharacter(in: value) {
            throw .invalid(field, "\(field) must not contain control characters (found \(codePoint(scalar)))")
        }
        if let scalar = value.unicodeScalars.first(where: { $0.properties.isWhitespace }) {
            throw .invalid(field, "\(field) must not contain spaces (found \(codePoint(scalar)))")
        }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalid(field, "\(field) must contain exactly one '@' (got \(parts.count - 1))")
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .invalid(field, "\(field) must have text before and after the '@'")
        }
        return value.lowercased()
    }

    /// How long a new password must be, in bytes of UTF-8: the one rule the server checks and
    /// the command-line client states.
    package static let newPasswordBytes = 8...256

    /// Checks a new password (`Register.password`, `new_password`): 8...256 bytes.
    ///
    /// - Parameters:
    ///   - value: The password (never echoed in the message).
    ///   - field: The field's path: `new_password` (the default) or `password` (Register).
    /// - Throws: `DomainError.invalid(field, …)` when its length is outside 8...256 bytes.
    package static func password(new value: String, field: String = "new_password") throws(DomainError) {
        guard newPasswordBytes.contains(value.utf8.count) else {
            throw .invalid(field, "\(field) must be \(newPasswordBytes.lowerBound) to \(newPasswordBytes.upperBound) bytes long")
        }
    }

    /// Checks a presented password (`Login.password`, `current_password`,
    /// `DeleteAccount.password`): 1...256 bytes. Shorter new-password rules are not
    /// applied, so members whose password predates a rule can still sign in.
    ///
    /// - Parameters:
    ///   - value: The password (never echoed in the message).
    ///   - field: The field's path: `password` (the default) or `current_password`.
    /// - Throws: `DomainError.invalid(field, …)` when its length is outside 1...256 bytes.
    package static func password(presented value: String, field: String = "password") throws(DomainError) {
        guard (1...256).contains(value.utf8.count) else {
            throw .invalid(field, "\(field) must be 1 to 256 bytes long")
        }
    }

    /// Checks a page size and fills in its default.
    ///
    /// - Parameters:
    ///   - value: The requested page size; 0 means the default.
    ///   - field: The field's path, e.g. `page_size`.
    ///   - maximum: The largest page size allowed, e.g. 100.
    ///   - defaultSize: The size used for 0, e.g. 20.
    /// - Returns: The page size to use.
    /// - Throws: `DomainError.invalid(field, …)` when `value` exceeds `maximum`.
    package static func pageSize(_ value: UInt32, field: String, maximum: UInt32, defaultSize: UInt32) throws(DomainError) -> Int {
        guard value <= maximum else {
            throw .invalid(field, "\(field) must be between 0 (default \(defaultSize)) and \(maximum) (got \(value))")
        }
        return Int(value == 0 ? defaultSize : value)
    }

    // MARK: Messages

    private static func firstControlCharacter(in value: String) -> Unicode.Scalar? {
        value.unicodeScalars.first { $0.properties.generalCategory == .control }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        if range.lowerBound == range.upperBound { return "exactly \(range.lowerBound)" }
        if range.lowerBound == 0 { return "at most \(range.upperBound)" }
        return "\(range.lowerBound) to \(range.upperBound)"
    }

    private static func describe(_ range: ClosedRange<Double>, zeroAsUnset: Bool) -> String {
        "\(zeroAsUnset ? "0 (not stated) or " : "")between \(format(range.lowerBound)) and \(format(range.upperBound))"
    }

    /// Whole numbers without a fraction (`10000`, not `10000.0`), others as Swift
    /// prints them.
    private static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A number as the bounds' messages write it: whole numbers without a fraction.
    package static func formatted(_ value: Double) -> String { format(value) }
}
