// Replacing a file whole, so that a crash or a power cut at any moment leaves the old file or the
// new one, never a mix and never neither. The steps, and the C guarantees they rely on:
//
// 1. The new bytes go to a temporary file of a unique name in the same directory, created with
//    `O_EXCL` (a random name, drawn again when taken: no other process's file is ever reused),
//    mode `permissions`.
// 2. They are synced (`fsync`) before the rename, so the name never points at bytes that are
//    not on disk yet.
// 3. `rename` puts the new file in place. rename(2): "If newpath already exists, it will be
//    atomically replaced, so that there is no point at which another process attempting to
//    access newpath will find it missing." Same directory, so same file system.
// 4. The directory is synced. fsync(2): "Calling fsync() does not necessarily ensure that the
//    entry in the directory containing the file has also reached disk. For that an explicit
//    fsync() on a file descriptor for the directory is also needed."
//
// A failure before the rename removes the temporary file and leaves the old file as it was.

#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

extension SystemCall {
    /// Replaces the file at `path` with `bytes`, atomically and durably: a temporary file of a
    /// unique name beside it, written, synced (`fsync`), closed, renamed over
    /// `path` (`rename`), and the directory synced.
    ///
    /// - Parameters:
    ///   - path: The file to replace (made when missing).
    ///   - bytes: Its new content, whole.
    ///   - permissions: The new file's mode, whatever the umask (`fchmod`).
    /// - Throws: ``SystemCallError`` naming the call that failed and its file. Before the rename
    ///   the old file stays as it was; a failure of the directory's sync leaves the new file in
    ///   place, not known to be durable.
    package static func replaceFile(at path: String, with bytes: [UInt8], permissions: mode_t = 0o600) throws(SystemCallError) {
        let (descriptor, temporary) = try writeReplacement(of: path, with: bytes, permissions: permissions)
        do throws(SystemCallError) {
            try close(descriptor, subject: temporary)
            try retrying("rename", subject: path) { rename(temporary, path) }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        try syncDirectory(containing: path)
    }

    /// Replaces the file at `path` with `bytes` as ``replaceFile(at:with:permissions:)`` does, and
    /// keeps the new file open: `adopt` gets its descriptor (open for reading and writing) once it
    /// is in place, before the directory is synced, and owns it from then on (a log that goes on
    /// appending to its rewritten self).
    ///
    /// - Parameters:
    ///   - path: The file to replace (made when missing).
    ///   - bytes: Its new content, whole.
    ///   - permissions: The new file's mode, whatever the umask (`fchmod`).
    ///   - adopt: Called once with the new file's descriptor, after the rename.
    /// - Throws: ``SystemCallError`` naming the call that failed and its file; `adopt` is not
    ///   called when the failure comes before the rename (the old file then stays as it was).
    package static func replaceFile(
        at path: String, with bytes: [UInt8], permissions: mode_t = 0o600, adopting adopt: (Int32) -> Void
    ) throws(SystemCallError) {
        let (descriptor, temporary) = try writeReplacement(of: path, with: bytes, permissions: permissions)
        do throws(SystemCallError) {
            try retrying("rename", subject: path) { rename(temporary, path) }
        } catch {
            try? close(descriptor, subject: temporary)
            _ = unlink(temporary)
            throw error
        }
        adopt(descriptor)
        try syncDirectory(containing: path)
    }

    /// Syncs the directory holding `path` (`fsync` of the directory), so that a rename, link or
    /// creation of `path` is durable.
    ///
    /// - Throws: ``SystemCallError`` naming `open` or `fsync` and the directory.
    package static func syncDirectory(containing path: String) throws(SystemCallError) {
        try syncDirectory(directoryName(of: path))
    }

    /// Syncs the directory at `directory` (`fsync` of the directory), so that the renames, links
    /// and creations in it are durable.
    ///
    /// - Throws: ``SystemCallError`` naming `open` or `fsync` and the directory.
    package static func syncDirectory(_ directory: String) throws(SystemCallError) {
        let descriptor = try retrying("open", subject: directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { try? close(descriptor, subject: directory) }
        try retrying("fsync", subject: directory) { fsync(descriptor) }
    }

    /// A temporary file beside `path` holding `bytes`, synced, with its mode set; its descriptor
    /// and name. Nothing is left behind when it fails.
    private static func writeReplacement(
        of path: String, with bytes: [UInt8], permissions: mode_t
    ) throws(SystemCallError) -> (descriptor: Int32, temporary: String) {
        // `dir/name` → `dir/.name.RANDOM`: hidden, and beside it (the same file system).
        let prefix = path.lastIndex(of: "/").map { slash in
            String(path[...slash]) + "." + path[path.index(after: slash)...]
        } ?? "." + path
        var attempts = 0
        var descriptor: Int32 = -1
        var temporary = ""
        while descriptor < 0 {
            temporary = prefix + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            do throws(SystemCallError) {
                descriptor = try retrying("open", subject: temporary) {
                    open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                }
            } catch where error.errno == EEXIST && attempts < 16 {
                attempts += 1
            }
        }
        do throws(SystemCallError) {
            try retrying("fchmod", subject: temporary) { fchmod(descriptor, permissions) }
            var written = 0
            while written < bytes.count {
                written += try retrying("write", subject: temporary) {
                    bytes.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress! + written, buffer.count - written) }
                }
            }
            try retrying("fsync", subject: temporary) { fsync(descriptor) }
        } catch {
            try? close(descriptor, subject: temporary)
            _ = unlink(temporary)
            throw error
        }
        return (descriptor, temporary)
    }

    /// The directory part of `path` (`"."` when it has none; `"/"` for a file at the root).
    private static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
