public import Foundation
import WorkoutClient
import WorkoutFiles

/// The ids an import gives records it derives from a source that has none: name-based UUIDs
/// (version 5, RFC 9562 §5.5: SHA-1 of a namespace and a name), so the same record of the same
/// source always gets the same id — importing a file twice, or again after an import was
/// stopped halfway, stores nothing twice.
public enum ImportRecordID {
    /// The namespace of ids derived from Apple Health exports.
    public static let appleHealth = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B01")!
    /// The namespace of ids derived from spreadsheet CSV rows.
    public static let spreadsheet = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B02")!
    /// The namespace of ids derived from workout files (FIT, GPX, TCX), on the phone and the
    /// server's upload alike.
    public static let workoutFile = WorkoutFile.namespace

    /// The version-5 UUID of `name` in `namespace`.
    ///
    /// - Parameters:
    ///   - namespace: The source's namespace.
    ///   - name: What identifies the record in its source (its kind and its source fields).
    /// - Returns: The id; the same for the same namespace and name, everywhere.
    public static func derived(namespace: UUID, name: String) -> UUID {
        NameBasedUUID.version5(namespace: namespace, name: name)
    }
}
