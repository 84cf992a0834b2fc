import Crypto
public import Foundation
import WorkoutClient

/// The ids an import gives records it derives from a source that has none: name-based UUIDs
/// (version 5, RFC 9562 §5.5: SHA-1 of a namespace and a name), so the same record of the same
/// source always gets the same id — importing a file twice, or again after an import was
/// stopped halfway, stores nothing twice.
public enum ImportRecordID {
    /// The namespace of ids derived from Apple Health exports.
    public static let appleHealth = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B01")!
    /// The namespace of ids derived from spreadsheet CSV rows.
    public static let spreadsheet = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B02")!

    /// The version-5 UUID of `name` in `namespace`.
    ///
    /// - Parameters:
    ///   - namespace: The source's namespace.
    ///   - name: What identifies the record in its source (its kind and its source fields).
    /// - Returns: The id; the same for the same namespace and name, everywhere.
    public static func derived(namespace: UUID, name: String) -> UUID {
        var hasher = Insecure.SHA1()
        withUnsafeBytes(of: namespace.uuid) { hasher.update(bufferPointer: $0) }
        hasher.update(data: Data(name.utf8))
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50     // version 5
        bytes[8] = (bytes[8] & 0x3F) | 0x80     // the RFC 9562 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
