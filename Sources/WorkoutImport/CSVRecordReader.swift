import Foundation
import WorkoutClient

/// Reads CSV records (RFC 4180: fields separated by commas, quoted with `"` when they hold
/// commas, quotes or line breaks, quotes doubled; CRLF or LF line ends) from a stream, one
/// record at a time, each with the line it starts on — what the import's error messages
/// name. Memory is one record and a 64 KiB buffer; a record longer than 1 MiB is refused.
struct CSVRecordReader {
    /// One record: its fields and the line (from 1) it starts on.
    struct Record {
        var fields: [String]
        var line: Int
    }

    /// A record that cannot be read as text.
    struct Malformed: Error {
        var line: Int
        var reason: String
    }

    private let stream: InputStream
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var available = 0
    private var position = 0
    private var line = 1
    private var atEnd = false
    private var pushedBack: UInt8?

    /// A reader of `stream`.
    init(stream: InputStream) {
        self.stream = stream
        stream.open()
    }

    private mutating func nextByte() -> UInt8? {
        if let byte = pushedBack {
            pushedBack = nil
            return byte
        }
        if position == available {
            guard !atEnd else { return nil }
            available = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            position = 0
            if available <= 0 {
                available = 0
                atEnd = true
                return nil
            }
        }
        defer { position += 1 }
        return buffer[position]
    }

    /// The next record, `nil` at the end; a record whose bytes are not UTF-8 is returned as
    /// a ``Malformed`` result so the caller can report it and go on.
    mutating func next() -> Result<Record, Malformed>? {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var fieldStarted = false
        var valid = true
        var total = 0
        let start = line
        var sawAnything = false
        func finishField() {
            if let text = String(validating: field, as: UTF8.self) { fields.append(text) } else { valid = false; fields.append("") }
            field.removeAll(keepingCapacity: true)
            fieldStarted = false
        }
        while let byte = nextByte() {
            sawAnything = true
            total += 1
            if total > 1 << 20 {
                // Skip to the end of the line and refuse the record.
                while let rest = nextByte(), rest != 0x0A {}
                line += 1
                return .failure(Malformed(line: start, reason: "a record longer than 1 MiB"))
            }
            if quoted {
                if byte == 0x22 {
                    if let following = nextByte() {
                        if following == 0x22 { field.append(0x22) } else { quoted = false; pushedBack = following }
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case 0x22 where !fieldStarted && field.isEmpty:
                quoted = true
                fieldStarted = true
            case 0x2C:
                finishField()
            case 0x0D:
                continue
            case 0x0A:
                line += 1
                finishField()
                return valid ? .success(Record(fields: fields, line: start)) : .failure(Malformed(line: start, reason: "the line is not UTF-8 text"))
            default:
                field.append(byte)
                fieldStarted = true
            }
        }
        guard sawAnything else { return nil }
        if quoted { return .failure(Malformed(line: start, reason: "a quoted field is never closed (the file was cut off?)")) }
        finishField()
        return valid ? .success(Record(fields: fields, line: start)) : .failure(Malformed(line: start, reason: "the line is not UTF-8 text"))
    }
}
