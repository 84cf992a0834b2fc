import SystemCalls
import Crypto
import Foundation
package import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension BackupArchive {
    /// Whether the file at `path` starts like a gzip file (RFC 1952's magic bytes 1f 8b).
    package static func looksLikeArchive(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 2)) == Data([0x1f, 0x8b])
    }

    /// Reads an archive's manifest and checks that this build can restore it, without reading
    /// (or checking) the store.
    ///
    /// - Parameters:
    ///   - path: the archive.
    ///   - schema: the schema this build knows.
    /// - Throws: ``StorageError``: `damagedBackup` when it is not an archive of ours or is cut
    ///   short, `schemaTooNew` when its store is newer than `schema`.
    package static func readManifest(_ path: String, schema: Schema) throws -> BackupManifest {
        try withArchive(path) { reader in try manifest(from: reader, path: path, schema: schema) }
    }

    /// Restores an archive into `directory`: checks the manifest (format, schema version), reads
    /// the files carried beside the store (each checked against the manifest's name, size and
    /// SHA-256, and returned: the caller puts them where they belong), then
    /// extracts the store under a temporary name in `directory` while hashing it, checks its
    /// size and SHA-256 against the manifest and gzip's CRC-32, and only then hands it to
    /// ``Store/install(restoring:from:into:schema:replacing:bytes:)``, which opens it read-only
    /// as a Workout store and renames it over `data.mdb` (atomically).
    ///
    /// The caller keeps servers out of `directory` (as for ``Store/restore(backup:into:schema:replacing:)``).
    ///
    /// - Parameters:
    ///   - path: the archive.
    ///   - directory: the data directory; created (mode 0700) if missing.
    ///   - schema: the schema this build knows.
    ///   - replacing: whether a store in `directory` may be replaced.
    ///   - checkFiles: the caller's check of the files carried beside the store (that they
    ///     parse as what the caller will install), run before anything in `directory` changes.
    /// - Returns: the restore's summary, the archive's manifest and the files it carried beside
    ///   the store (none from a format version 1 archive).
    /// - Throws: ``StorageError``: `damagedBackup` (truncated, altered, not an archive),
    ///   `schemaTooNew`, `storeExists`, `dataDirectory`, `notAStore`; or what `checkFiles`
    ///   throws. On any error nothing in `directory` has changed but for a created, empty directory.
    package static func restore(
        archive path: String, into directory: String, schema: Schema, replacing: Bool,
        checkFiles: ([File]) throws -> Void = { _ in }
    ) throws -> (summary: RestoreSummary, manifest: BackupManifest, files: [File]) {
        try withArchive(path) { reader in
            let manifest = try manifest(from: reader, path: path, schema: schema)
            guard replacing || !FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(storeEntryName)) else {
                throw StorageError(.storeExists, "\(directory) holds a store already; it is replaced only when asked to")
            }
            let files = try (manifest.files ?? []).map { entry in try file(entry, from: reader, path: path) }
            try checkFiles(files)
            guard let header = try nextHeader(reader, path: path), header.name == storeEntryName else {
                throw StorageError(.damagedBackup, "\(path) holds no \(storeEntryName) after its manifest")
            }
            guard header.size == manifest.storeBytes else {
                throw StorageError(
                    .damagedBackup,
                    "\(path) was altered: its \(storeEntryName) has \(header.size) bytes, the manifest says \(manifest.storeBytes)")
            }
            try createDirectory(directory)
            let temporary = Store.restoringFileName(in: directory)
            do {
                try extract(reader, bytes: header.size, to: temporary, archive: path, expectedSHA256: manifest.storeSHA256)
            } catch {
                _ = try? SystemCall.retrying("unlink", subject: temporary) { unlink(temporary) }
                throw error
            }
            let summary = try Store.install(
                restoring: temporary, from: path, into: directory, schema: schema, replacing: replacing, bytes: header.size)
            return (summary, manifest, files)
        }
    }

    /// Reads the entry the manifest lists as `entry`, and checks its name, size and SHA-256.
    private static func file(_ entry: BackupManifest.FileEntry, from reader: GzipFileReader, path: String) throws -> File {
        guard let header = try nextHeader(reader, path: path), header.name == entry.name else {
            throw StorageError(.damagedBackup, "\(path) was altered: its manifest lists \(entry.name), the archive does not hold it there")
        }
        guard header.size == entry.bytes else {
            throw StorageError(
                .damagedBackup, "\(path) was altered: its \(entry.name) has \(header.size) bytes, the manifest says \(entry.bytes)")
        }
        let bytes = try reader.read(exactly: header.size)
        _ = try reader.read(exactly: TarHeader.padding(after: header.size))
        let digest = hex(SHA256.hash(data: bytes))
        guard digest == entry.sha256 else {
            throw StorageError(
                .damagedBackup, "\(path) was altered: the SHA-256 of its \(entry.name) is \(digest), the manifest says \(entry.sha256)")
        }
        return File(name: entry.name, bytes: bytes, mode: header.mode & 0o777)
    }

    /// Opens the archive, runs `body` with a gzip reader on it, closes both.
    private static func withArchive<R>(_ path: String, _ body: (GzipFileReader) throws -> R) throws -> R {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying("open", subject: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw StorageError(.dataDirectory, "cannot open the archive \(path)", underlying: error)
        }
        defer { try? SystemCall.close(descriptor, subject: path) }
        guard looksLikeArchive(path) else {
            throw StorageError(.damagedBackup, "\(path) is not a Workout backup archive (not a gzip file)")
        }
        let reader = GzipFileReader(descriptor: descriptor, path: path)
        defer { reader.close() }
        return try body(reader)
    }

    /// The next tar header, or `nil` at the archive's end blocks.
    private static func nextHeader(_ reader: GzipFileReader, path: String) throws -> TarHeader? {
        do {
            return try TarHeader.decode(try reader.read(exactly: TarHeader.blockSize))
        } catch let error as TarHeaderError {
            throw StorageError(.damagedBackup, "\(path) is not a Workout backup archive: \(error.message)")
        }
    }

    /// Reads and checks the manifest entry.
    private static func manifest(from reader: GzipFileReader, path: String, schema: Schema) throws -> BackupManifest {
        guard let header = try nextHeader(reader, path: path), header.name == manifestEntryName else {
            throw StorageError(.damagedBackup, "\(path) is not a Workout backup archive (it does not begin with \(manifestEntryName))")
        }
        guard header.size <= maxManifestBytes else {
            throw StorageError(.damagedBackup, "\(path) has a manifest of \(header.size) bytes; at most \(maxManifestBytes) are accepted")
        }
        let bytes = try reader.read(exactly: header.size)
        _ = try reader.read(exactly: TarHeader.padding(after: header.size))
        let manifest: BackupManifest
        do {
            manifest = try BackupManifest.decode(bytes)
        } catch {
            throw StorageError(.damagedBackup, "\(path) has a manifest that cannot be read: \(error)")
        }
        guard manifest.format == BackupManifest.formatName else {
            throw StorageError(.damagedBackup, "\(path) is not a Workout backup archive (format \"\(manifest.format)\")")
        }
        guard manifest.formatVersion <= BackupManifest.currentFormatVersion else {
            throw StorageError(
                .schemaTooNew,
                "\(path) is in archive format \(manifest.formatVersion); this workoutd reads up to \(BackupManifest.currentFormatVersion): restore it with a newer workoutd")
        }
        if let files = manifest.files {
            guard files.count <= maxFiles,
                  files.allSatisfy({ File.isAcceptable(name: $0.name) && (0...maxFileBytes).contains($0.bytes) }),
                  Set(files.map(\.name)).count == files.count
            else {
                throw StorageError(
                    .damagedBackup,
                    "\(path) has a manifest listing files this workoutd does not accept (at most \(maxFiles), of at most \(maxFileBytes) bytes each, with relative names)")
            }
        }
        guard manifest.schemaVersion <= schema.version else {
            throw StorageError(
                .schemaTooNew,
                "\(path) holds a store of schema version \(manifest.schemaVersion) (written by workoutd \(manifest.serverVersion)); this workoutd knows up to schema version \(schema.version): restore it with workoutd \(manifest.serverVersion) or newer")
        }
        return manifest
    }

    /// Copies `bytes` of the store entry into a new file while hashing them, then reads to the
    /// end of the archive (so gzip's trailer is checked), compares the hash and fsyncs the file.
    private static func extract(
        _ reader: GzipFileReader, bytes: Int, to temporary: String, archive path: String, expectedSHA256: String
    ) throws {
        let output: Int32
        do {
            output = try SystemCall.retrying("open", subject: temporary) {
                open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            }
        } catch {
            throw StorageError(.dataDirectory, "cannot create \(temporary)", underlying: error)
        }
        defer { try? SystemCall.close(output, subject: temporary) }
        var hasher = SHA256()
        let chunkSize = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var remaining = bytes
        while remaining > 0 {
            let want = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(chunkSize, remaining)])
            let got = try reader.read(into: want)
            guard got == want.count else {
                throw StorageError(.damagedBackup, "\(path) is truncated: its \(storeEntryName) is cut short")
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(want))
            var written = 0
            do {
                while written < got {
                    written += try writeToFile(output, want.baseAddress! + written, got - written, path: temporary)
                }
            } catch {
                throw StorageError(.dataDirectory, "cannot write \(temporary)", underlying: error)
            }
            remaining -= got
        }
        try reader.readToEnd()
        let digest = hex(hasher.finalize())
        guard digest == expectedSHA256 else {
            throw StorageError(
                .damagedBackup,
                "\(path) was altered: the SHA-256 of its \(storeEntryName) is \(digest), the manifest says \(expectedSHA256)")
        }
        do {
            try SystemCall.retrying("fsync", subject: temporary) { fsync(output) }
        } catch {
            throw StorageError(.dataDirectory, "cannot sync \(temporary)", underlying: error)
        }
    }

    /// Creates the data directory (mode 0700) if missing.
    private static func createDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StorageError(.dataDirectory, "\(directory) exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(.dataDirectory, "cannot create the data directory \(directory): \((error as NSError).localizedDescription)")
        }
    }
}
