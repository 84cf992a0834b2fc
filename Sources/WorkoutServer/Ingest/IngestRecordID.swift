import Crypto
import Foundation

/// The ids of records the ingest endpoints make: derived from what the phone app sent, so a
/// record sent again (a repeated or overlapping push) has the id it had, and is stored once.
enum IngestRecordID {
    /// A name-based id (16 bytes shaped as a version-8 UUID): the first 16 bytes of SHA-256 of
    /// `namespace`, a zero byte and `name`.
    ///
    /// - Parameters:
    ///   - namespace: The format's own (`workout health-auto-export v1`), so two formats never
    ///     derive the same id.
    ///   - name: What identifies the record within the format: its kind, source, times and figures.
    static func derived(namespace: String, _ name: String) -> Data {
        var id = Array(SHA256.hash(data: Array("\(namespace)\u{0}\(name)".utf8)).prefix(16))
        id[6] = (id[6] & 0x0F) | 0x80
        id[8] = (id[8] & 0x3F) | 0x80
        return Data(id)
    }
}
