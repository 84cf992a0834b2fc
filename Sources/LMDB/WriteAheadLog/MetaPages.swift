#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The data file's pages as the write-ahead log reads them before liblmdb opens it: single
/// pages, and the two meta pages put back.
enum MetaPages {
    /// Reads `count` pages from page `number` of the data file at `path` (fewer bytes where the
    /// file ends).
    static func page(_ number: UInt64, count: Int = 1, of path: String, pageSize: Int) throws(LMDBError) -> [UInt8] {
        let descriptor = try FileIO.open(path)
        defer { FileIO.release(descriptor) }
        guard number < UInt64(Int.max / pageSize) else { return [] }
        return try FileIO.read(descriptor, count: count * pageSize, at: Int(number) * pageSize, path: path)
    }

    /// Writes `pages` over pages 0 and 1 of the data file at `path` unless they already hold
    /// them, and syncs the file.
    ///
    /// - Returns: whether the file was changed.
    @discardableResult
    static func restore(_ pages: [UInt8], dataFile path: String) throws(LMDBError) -> Bool {
        let descriptor = try FileIO.open(path)
        defer { FileIO.release(descriptor) }
        if try FileIO.read(descriptor, count: pages.count, at: 0, path: path) == pages { return false }
        try FileIO.write(descriptor, pages, at: 0, path: path)
        try FileIO.sync(descriptor, path: path)
        return true
    }
}
