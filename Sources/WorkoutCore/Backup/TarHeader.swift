/// One POSIX ustar header block, the only tar the archive needs: regular files with short names.
///
/// ```
/// offset size field            offset size field
///      0  100 name                257    6 magic "ustar\0"
///    100    8 mode (octal)        263    2 version "00"
///    108    8 uid  (octal)        265   32 uname
///    116    8 gid  (octal)        297   32 gname
///    124   12 size (octal)        329    8 devmajor
///    136   12 mtime (octal)       337    8 devminor
///    148    8 checksum            345  155 prefix
///    156    1 typeflag '0'        500   12 (zero padding to 512)
///    157  100 linkname
/// ```
///
/// The checksum is the sum of the header's bytes with the checksum field read as spaces. A size
/// of 8 GiB or more, which 11 octal digits cannot hold, is written in GNU tar's base-256 form
/// (the field's first byte 0x80, then the size big-endian), which GNU tar and bsdtar read.
struct TarHeader: Equatable {
    /// Every header and every entry's data is padded to this size.
    static let blockSize = 512

    /// The entry's name (at most 100 bytes).
    var name: String
    /// The entry's size in bytes.
    var size: Int
    /// Its modification time, in seconds since 1970.
    var modificationTime: Int
    /// Its permission bits.
    var mode: Int = 0o600

    /// The 512-byte header block.
    func encoded() -> [UInt8] {
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        func put(_ bytes: some Collection<UInt8>, at offset: Int) {
            for (index, byte) in bytes.enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        precondition(name.utf8.count <= 100, "tar entry name too long")
        put(name.utf8, at: 0)
        put(octal(mode, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        if size < 0o77777777777 {
            put(octal(size, width: 12), at: 124)
        } else {
            put([0x80, 0, 0, 0], at: 124)
            put(withUnsafeBytes(of: UInt64(size).bigEndian) { Array($0) }, at: 128)
        }
        put(octal(modificationTime, width: 12), at: 136)
        block[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        put(Array("root".utf8), at: 265)
        put(Array("root".utf8), at: 297)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)
        let sum = block.reduce(0) { $0 + Int($1) }
        put(octal(sum, width: 7) + [UInt8(ascii: " ")], at: 148)
        return block
    }

    /// Decodes a header block.
    ///
    /// - Returns: `nil` for an all-zero block (the end of the archive).
    /// - Throws: a message (the caller says which archive) when the block is not a ustar header
    ///   of a regular file, or its checksum does not match.
    static func decode(_ block: [UInt8]) throws(TarHeaderError) -> TarHeader? {
        precondition(block.count == blockSize)
        if block.allSatisfy({ $0 == 0 }) { return nil }
        guard block[257..<262].elementsEqual("ustar".utf8) else {
            throw TarHeaderError(message: "not a tar archive of Workout's (no ustar header)")
        }
        var sum = 0
        for (index, byte) in block.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        guard let stored = octalValue(block[148..<156]), stored == sum else {
            throw TarHeaderError(message: "a tar header's checksum does not match")
        }
        guard block[156] == UInt8(ascii: "0") || block[156] == 0 else {
            throw TarHeaderError(message: "an entry is not a regular file")
        }
        let name = String(decoding: block[0..<100].prefix { $0 != 0 }, as: UTF8.self)
        let size: Int
        if block[124] & 0x80 != 0 {
            size = block[128..<136].reduce(0) { ($0 << 8) | Int($1) }
        } else if let value = octalValue(block[124..<136]) {
            size = value
        } else {
            throw TarHeaderError(message: "the size of \(name) is malformed")
        }
        let time = octalValue(block[136..<148]) ?? 0
        let mode = octalValue(block[100..<108]) ?? 0
        return TarHeader(name: name, size: size, modificationTime: time, mode: mode)
    }

    /// The zero bytes that pad `size` bytes of data to a whole block.
    static func padding(after size: Int) -> Int {
        (blockSize - size % blockSize) % blockSize
    }

    /// An octal field: digits, ended by NUL or space, leading spaces allowed.
    private static func octalValue(_ field: ArraySlice<UInt8>) -> Int? {
        let digits = field.drop { $0 == UInt8(ascii: " ") }.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 21 else { return nil }
        return Int(String(decoding: digits, as: UTF8.self), radix: 8)
    }
}

/// Why a tar header block was refused.
struct TarHeaderError: Error {
    /// What is wrong.
    let message: String
}
