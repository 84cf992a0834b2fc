package import Foundation

/// What a backup archive says about itself: `manifest.json`, its first entry.
///
/// ```json
/// {
///   "format": "workout-backup", "format_version": 1,
///   "created_at": "2026-11-24T03:15:00Z", "host": "nas",
///   "server_version": "0.1.0", "schema_version": 1,
///   "store_file": "data.mdb", "store_bytes": 1048576,
///   "store_sha256": "9f86d0…",
///   "records": {"users": 4, "workouts": 14600, "meals": 43800, …},
///   "files": [{"name": "identity/key.pem", "bytes": 241, "sha256": "5e884…"}, …]
/// }
/// ```
///
/// `records` counts the entries of every table and index of the store as copied, so two
/// archives can be compared without restoring them. `files` lists the small files the archive
/// carries beside the store (``BackupArchive/File``), in the order of their entries; format
/// version 1 had none.
package struct BackupManifest: Codable, Sendable, Equatable {
    /// What `format` always holds.
    package static let formatName = "workout-backup"
    /// The format version this build writes and reads (1: the store alone; 2: ``files`` too).
    package static let currentFormatVersion = 2

    /// Always ``formatName``.
    package var format: String = BackupManifest.formatName
    /// The archive format's version.
    package var formatVersion: Int = BackupManifest.currentFormatVersion
    /// When the copy was taken (UTC, whole seconds).
    package var createdAt: Date
    /// The machine it was taken on.
    package var host: String
    /// The `workoutd` version that wrote it.
    package var serverVersion: String
    /// The store's schema version.
    package var schemaVersion: UInt32
    /// The name of the store's entry in the archive.
    package var storeFile: String = BackupArchive.storeEntryName
    /// The store's size in bytes.
    package var storeBytes: Int
    /// SHA-256 of the store's bytes, lowercase hex.
    package var storeSHA256: String
    /// Entries per table, by table name.
    package var records: [String: Int]
    /// The files carried beside the store, in entry order; `nil` in a format version 1 archive.
    package var files: [FileEntry]?

    /// One file an archive carries beside the store, as the manifest lists it.
    package struct FileEntry: Codable, Sendable, Equatable {
        /// Its entry name, e.g. `identity/key.pem`.
        package var name: String
        /// Its size in bytes.
        package var bytes: Int
        /// SHA-256 of its bytes, lowercase hex.
        package var sha256: String

        /// Makes an entry.
        package init(name: String, bytes: Int, sha256: String) {
            self.name = name
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// Makes a manifest.
    package init(
        createdAt: Date, host: String, serverVersion: String, schemaVersion: UInt32,
        storeBytes: Int, storeSHA256: String, records: [String: Int], files: [FileEntry]? = nil
    ) {
        self.createdAt = createdAt
        self.host = host
        self.serverVersion = serverVersion
        self.schemaVersion = schemaVersion
        self.storeBytes = storeBytes
        self.storeSHA256 = storeSHA256
        self.records = records
        self.files = files
    }

    enum CodingKeys: String, CodingKey {
        case format
        case formatVersion = "format_version"
        case createdAt = "created_at"
        case host
        case serverVersion = "server_version"
        case schemaVersion = "schema_version"
        case storeFile = "store_file"
        case storeBytes = "store_bytes"
        case storeSHA256 = "store_sha256"
        case records
        case files
    }

    /// The manifest as pretty-printed JSON with sorted keys.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// Parses a manifest.
    ///
    /// - Throws: `DecodingError` when it is not one.
    package static func decode(_ bytes: [UInt8]) throws -> BackupManifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(BackupManifest.self, from: Data(bytes))
    }
}
