import SystemCalls
import Crypto
package import Foundation
package import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A backup as one file a family can keep on a USB disk or a NAS: a gzip-compressed tar
/// (`tar -tzf` lists it) of these entries, in this order:
///
/// 1. `manifest.json` (``BackupManifest``): when, which host, server and schema versions, the
///    store's size and SHA-256, the entries of every table, and the files below;
/// 2. the small files the caller hands over (``File``: the server's key and certificate,
///    `identity/…`), each with its own mode in its header and its size and SHA-256 in the
///    manifest;
/// 3. `data.mdb`: a consistent, compacted copy of the LMDB store (``Store/backup(to:)``), taken
///    while the server keeps serving.
///
/// The manifest comes first so that a restore checks the format and the schema version before
/// it writes anything; the store's SHA-256 and gzip's own CRC-32 are checked before the
/// restored copy replaces anything (``restore(archive:into:schema:replacing:)``).
///
/// Writing is crash-safe: the archive is written under a hidden temporary name beside its
/// final one, fsynced, then linked into place (never over an existing file) and the directory
/// fsynced; a crash leaves a hidden `.partial` file at worst, never a half archive under the
/// real name.
package enum BackupArchive {
    /// The manifest's entry name.
    package static let manifestEntryName = "manifest.json"
    /// The store's entry name.
    package static let storeEntryName = "data.mdb"
    /// The largest manifest accepted when reading.
    static let maxManifestBytes = 1 << 20
    /// The most files an archive carries beside the store.
    package static let maxFiles = 16
    /// The largest file an archive carries beside the store.
    package static let maxFileBytes = 64 << 10

    /// A small file carried beside the store, whole in memory.
    package struct File: Sendable, Equatable {
        /// Its entry name: a relative path of at most 100 bytes (`identity/key.pem`).
        package var name: String
        /// Its bytes (at most ``BackupArchive/maxFileBytes``).
        package var bytes: [UInt8]
        /// Its permission bits in the archive (`0o600` for a private key).
        package var mode: Int

        /// Makes a file.
        package init(name: String, bytes: [UInt8], mode: Int) {
            self.name = name
            self.bytes = bytes
            self.mode = mode
        }

        /// Whether `name` may name such an entry: relative, 1 to 100 bytes, no empty, `.` or
        /// `..` component, and not one of the archive's own entries.
        package static func isAcceptable(name: String) -> Bool {
            let components = name.split(separator: "/", omittingEmptySubsequences: false)
            return (1...100).contains(name.utf8.count) && !name.utf8.contains(0)
                && !components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
                && name != manifestEntryName && name != storeEntryName
        }
    }

    /// What ``write(from:to:serverVersion:host:now:level:)`` wrote.
    package struct Written: Sendable {
        /// The archive's path.
        package var path: String
        /// Its manifest.
        package var manifest: BackupManifest
        /// The archive's size on disk.
        package var archiveBytes: Int
    }

    /// Writes an archive of `store` at `path`, while the store keeps serving.
    ///
    /// - Parameters:
    ///   - store: the open store.
    ///   - path: the archive to create; its directory must exist; refused if it exists.
    ///   - serverVersion: the `workoutd` version, for the manifest.
    ///   - host: this machine's name, for the manifest.
    ///   - now: the time the manifest records.
    ///   - level: zlib's compression level (1 fast … 9 small).
    ///   - files: small files to carry beside the store (at most ``maxFiles`` of
    ///     ``maxFileBytes`` each, names as ``File/isAcceptable(name:)`` allows).
    /// - Returns: the archive's path, manifest and size.
    /// - Throws: ``StorageError``: `storeExists` when `path` exists, `dataDirectory` when a
    ///   file cannot be written, `database` when the copy fails. Nothing is left behind on error.
    package static func write(
        from store: Store, to path: String, serverVersion: String, host: String, now: Date = Date(), level: Int32 = 6,
        files: [File] = []
    ) throws -> Written {
        try write(
            schema: store.schema, copy: { try store.backup(to: $0) }, to: path, serverVersion: serverVersion, host: host,
            now: now, level: level, files: files)
    }

    /// Writes an archive of the store in `directory` without opening it as a ``Store`` (no
    /// migration runs): the archive taken before a migration. See
    /// ``write(from:to:serverVersion:host:now:level:)``.
    ///
    /// - Parameters:
    ///   - directory: a data directory holding a store, at any schema version.
    ///   - schema: the tables to count for the manifest.
    package static func write(
        storeIn directory: String, schema: Schema, to path: String, serverVersion: String, host: String,
        now: Date = Date(), level: Int32 = 6, files: [File] = []
    ) throws -> Written {
        try write(
            schema: schema, copy: { try Store.backup(directory: directory, to: $0) }, to: path,
            serverVersion: serverVersion, host: host, now: now, level: level, files: files)
    }

    private static func write(
        schema: Schema, copy: (String) throws -> Void, to path: String, serverVersion: String, host: String, now: Date, level: Int32,
        files extras: [File]
    ) throws -> Written {
        // The files come from the data directory (the server's identity): bounded here, as
        // restore bounds them, with an error rather than an archive restore would refuse.
        guard extras.count <= maxFiles else {
            throw StorageError(.dataDirectory, "\(extras.count) files to keep beside the store; an archive holds at most \(maxFiles)")
        }
        if let file = extras.first(where: { $0.bytes.count > maxFileBytes || !File.isAcceptable(name: $0.name) }) {
            throw StorageError(
                .dataDirectory,
                "\(file.name) (\(file.bytes.count) bytes) cannot go beside the store: at most \(maxFileBytes) bytes, a relative name without ..")
        }
        let files = FileManager.default
        if files.fileExists(atPath: path) {
            throw StorageError(.storeExists, "\(path) exists already; an archive is never overwritten")
        }
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let scratch = (directory as NSString).appendingPathComponent(".workout-backup-\(UUID().uuidString)")
        defer { try? files.removeItem(atPath: scratch) }
        try copy(scratch)
        guard let inspection = try Store.inspect(directory: scratch, schema: schema) else {
            throw StorageError(.database, "the copy of the store in \(scratch) is missing")
        }
        let copy = (scratch as NSString).appendingPathComponent(storeEntryName)
        let (bytes, digest) = try hashFile(copy)
        let manifest = BackupManifest(
            createdAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), host: host,
            serverVersion: serverVersion, schemaVersion: inspection.schemaVersion,
            storeBytes: bytes, storeSHA256: digest, records: inspection.entries,
            files: extras.map { BackupManifest.FileEntry(name: $0.name, bytes: $0.bytes.count, sha256: hex(SHA256.hash(data: $0.bytes))) })

        let temporary = (directory as NSString).appendingPathComponent(
            ".\((path as NSString).lastPathComponent).partial-\(UUID().uuidString)")
        defer { _ = try? SystemCall.retrying("unlink", subject: temporary) { unlink(temporary) } }
        do {
            try writeArchive(manifest: manifest, files: extras, storeFile: copy, to: temporary, level: level)
            try SystemCall.retrying("link", subject: "\(temporary) → \(path)") { link(temporary, path) }
            try SystemCall.syncDirectory(directory)
        } catch let error as SystemCallError where error.call == "link" && error.errno == EEXIST {
            throw StorageError(.storeExists, "\(path) exists already; an archive is never overwritten")
        } catch let error as SystemCallError {
            throw StorageError(.dataDirectory, "cannot write the archive \(path)", underlying: error)
        }
        let size = (try? files.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Written(path: path, manifest: manifest, archiveBytes: size)
    }

    /// The tar stream through gzip into a new file, fsynced.
    private static func writeArchive(manifest: BackupManifest, files: [File], storeFile: String, to path: String, level: Int32) throws {
        let output = try SystemCall.retrying("open", subject: path) {
            open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        defer { try? SystemCall.close(output, subject: path) }
        let gzip = GzipFileWriter(descriptor: output, path: path, level: level)
        defer { gzip.abandon() }
        let time = Int(manifest.createdAt.timeIntervalSince1970)
        let manifestBytes = try manifest.encoded()
        try gzip.write(TarHeader(name: manifestEntryName, size: manifestBytes.count, modificationTime: time).encoded())
        try gzip.write(manifestBytes)
        try gzip.write([UInt8](repeating: 0, count: TarHeader.padding(after: manifestBytes.count)))
        for file in files {
            try gzip.write(TarHeader(name: file.name, size: file.bytes.count, modificationTime: time, mode: file.mode).encoded())
            try gzip.write(file.bytes)
            try gzip.write([UInt8](repeating: 0, count: TarHeader.padding(after: file.bytes.count)))
        }
        try gzip.write(TarHeader(name: storeEntryName, size: manifest.storeBytes, modificationTime: time).encoded())
        let copied = try forEachChunk(of: storeFile) { chunk throws(SystemCallError) in try gzip.write(chunk) }
        guard copied == manifest.storeBytes else {
            throw StorageError(.database, "the copy of the store changed size while it was archived")
        }
        try gzip.write([UInt8](repeating: 0, count: TarHeader.padding(after: copied) + 2 * TarHeader.blockSize))
        try gzip.finish()
        try SystemCall.retrying("fsync", subject: path) { fsync(output) }
    }

    /// The size and lowercase hex SHA-256 of a file.
    static func hashFile(_ path: String) throws -> (bytes: Int, sha256: String) {
        var hasher = SHA256()
        let bytes: Int
        do {
            bytes = try forEachChunk(of: path) { chunk in hasher.update(bufferPointer: chunk) }
        } catch {
            throw StorageError(.dataDirectory, "cannot read \(path)", underlying: error)
        }
        return (bytes, hex(hasher.finalize()))
    }

    /// Lowercase hex of a digest.
    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Calls `body` with each chunk (1 MiB) of the file at `path`, in order.
    ///
    /// - Returns: the file's size.
    private static func forEachChunk(
        of path: String, _ body: (UnsafeRawBufferPointer) throws(SystemCallError) -> Void
    ) throws(SystemCallError) -> Int {
        let input = try SystemCall.retrying("open", subject: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { try? SystemCall.close(input, subject: path) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count = try readFromFile(input, buffer, size, path: path)
            if count == 0 { return total }
            try body(UnsafeRawBufferPointer(start: buffer, count: count))
            total += count
        }
    }
}
