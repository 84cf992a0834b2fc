import ArgumentParser
import Foundation

/// An ID given on the command line: a UUID as `workout` prints them.
enum IDArgument {
    /// Parses an ID.
    ///
    /// - Throws: `ValidationError` for anything but a UUID.
    static func parse(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("expected an ID such as 0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b")
        }
        return id
    }
}
