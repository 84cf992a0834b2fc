import Foundation
import WorkoutRules

/// The workouts of a FIT activity file (what Garmin, Wahoo, Coros, Polar and Suunto devices
/// record, and Garmin Connect and Strava export), read after the FIT protocol Garmin publishes
/// (the file header, definition and data messages, compressed timestamp headers, developer
/// fields, CRC-16) and the FIT profile's `file_id` (0) and `session` (18) messages: one workout
/// per session (a triathlon's swim, bike and run are three; its transitions are not workouts).
///
/// Only what a workout needs is read: the session's sport and sub-sport, start, timer (else
/// elapsed) time, distance, ascent, calories and heart rate. Every other message is stepped
/// over by its definition, so a newer device's messages and fields never stop a read. A file
/// that is not FIT, is damaged (a CRC that does not match) or ends early is refused whole,
/// never read in part. Chained FIT files (one after another in one file) are each read.
package enum FITActivityFile {
    /// The largest FIT file read: a day-long activity recorded every second is about 5 MB.
    package static let maxBytes = 64 << 20

    /// Seconds from 1970 to FIT's epoch, 1989-12-31T00:00:00Z.
    static let epochOffset: Int64 = 631_065_600

    /// What a file yields: its workouts, and why any session was left out.
    package struct Contents: Sendable {
        /// The workouts, in the file's order.
        package var activities: [WorkoutFileActivity] = []
        /// Why each session or track left out was left out.
        package var skipped: [String] = []
    }

    /// The workouts of `bytes`.
    ///
    /// - Throws: ``WorkoutFileError`` naming what is wrong, for a file that is not FIT, is
    ///   larger than ``maxBytes``, is damaged or truncated, or uses a definition it never made.
    package static func read(_ bytes: [UInt8]) throws(WorkoutFileError) -> Contents {
        guard bytes.count <= maxBytes else {
            throw WorkoutFileError("the FIT file is \(bytes.count) bytes; files over \(maxBytes >> 20) MiB are not read")
        }
        var contents = Contents()
        var offset = 0
        var fileIndex = 0
        repeat {
            try readFile(bytes, from: &offset, index: fileIndex, into: &contents)
            fileIndex += 1
        } while offset < bytes.count && fileIndex < 64
        return contents
    }

    /// Reads the FIT file starting at `offset` (one of a chain), moving `offset` past it.
    private static func readFile(_ bytes: [UInt8], from offset: inout Int, index: Int, into contents: inout Contents) throws(WorkoutFileError) {
        let start = offset
        guard bytes.count - start >= 12 else { throw WorkoutFileError("the file is not FIT: it is shorter than a FIT header") }
        let headerSize = Int(bytes[start])
        guard headerSize == 12 || headerSize == 14, bytes.count - start >= headerSize,
              bytes[start + 8] == UInt8(ascii: "."), bytes[start + 9] == UInt8(ascii: "F"),
              bytes[start + 10] == UInt8(ascii: "I"), bytes[start + 11] == UInt8(ascii: "T")
        else { throw WorkoutFileError("the file is not FIT: it does not begin with a FIT header (\".FIT\")") }
        if headerSize == 14 {
            let stated = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            if stated != 0, stated != crc(bytes[start..<start + 12]) {
                throw WorkoutFileError("the FIT file's header is damaged: its check does not match")
            }
        }
        let dataSize = Int(UInt32(bytes[start + 4]) | UInt32(bytes[start + 5]) << 8 | UInt32(bytes[start + 6]) << 16 | UInt32(bytes[start + 7]) << 24)
        let dataStart = start + headerSize
        guard dataSize <= bytes.count - dataStart - 2 else {
            throw WorkoutFileError("the FIT file ends early: its header promises \(dataSize) bytes of records, \(max(0, bytes.count - dataStart - 2)) follow")
        }
        let dataEnd = dataStart + dataSize
        let stated = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
        guard stated == crc(bytes[start..<dataEnd]) else {
            throw WorkoutFileError("the FIT file is damaged: its check (CRC) does not match its contents")
        }
        var reader = RecordReader(bytes: bytes, position: dataStart, end: dataEnd)
        var identity = "fit \(index)"
        try reader.readRecords { message in
            switch message.global {
            case 0:
                // file_id: manufacturer (1), product (2), serial number (3), time created (4).
                let parts = [1, 2, 3, 4].map { message.unsigned($0).map(String.init) ?? "-" }
                identity = "fit|" + parts.joined(separator: "|")
            case 18:
                session(message, identity: identity, into: &contents)
            default:
                break
            }
        }
        offset = dataEnd + 2
    }

    /// A session message as a workout.
    private static func session(_ message: Message, identity: String, into contents: inout Contents) {
        let sport = message.unsigned(5).map(Int.init) ?? 0
        let subSport = message.unsigned(6).map(Int.init)
        guard sport != 3 else { return }   // a multisport transition: the time between legs
        guard let start = message.unsigned(2) ?? message.unsigned(253) else {
            contents.skipped.append("a FIT session without a start time")
            return
        }
        // The timer time (moving, without pauses) as the Garmin app counts it, else the elapsed.
        guard let thousandths = message.unsigned(8) ?? message.unsigned(7), thousandths >= 1_000 else {
            contents.skipped.append("a FIT session without a duration")
            return
        }
        contents.activities.append(WorkoutFileActivity(
            type: WorkoutFileSports.workoutType(fitSport: sport, subSport: subSport),
            start: Date(timeIntervalSince1970: Double(Int64(start) + epochOffset)),
            durationSeconds: Double(thousandths) / 1_000,
            distanceMetres: message.unsigned(9).map { Double($0) / 100 },
            ascentMetres: message.unsigned(22).map { Double($0) },
            kilocalories: message.unsigned(11).map { Double($0) },
            averageHeartRate: message.unsigned(16).map { Double($0) },
            maxHeartRate: message.unsigned(17).map { Double($0) },
            place: WorkoutFileSports.place(fitSport: sport, subSport: subSport),
            identity: "\(identity)|session|\(start)|\(sport)"))
    }

    /// CRC-16 as FIT computes it (polynomial 0x8005 reflected, CRC-16/ARC).
    package static func crc(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    // MARK: Records

    /// A field of a definition: its number, size in bytes and base type.
    private struct FieldDefinition {
        var number: UInt8
        var size: Int
        var baseType: UInt8
    }

    /// A local message type's definition.
    private struct Definition {
        var global: UInt16
        var bigEndian: Bool
        var fields: [FieldDefinition]
        /// The bytes of the developer fields after the fields.
        var developerBytes: Int
    }

    /// A data message, with the fields read as unsigned integers where their type is one.
    struct Message {
        var global: UInt16
        var values: [UInt8: UInt64]

        /// Field `number`'s value, `nil` when absent or FIT's invalid value.
        func unsigned(_ number: UInt8) -> UInt64? { values[number] }
    }

    /// Reads records one by one, bounded by the file's data size.
    private struct RecordReader {
        let bytes: [UInt8]
        var position: Int
        let end: Int
        var definitions: [Definition?] = Array(repeating: nil, count: 16)

        mutating func take(_ count: Int) throws(WorkoutFileError) -> ArraySlice<UInt8> {
            guard count >= 0, end - position >= count else {
                throw WorkoutFileError("the FIT file is damaged: a record runs past the end of its records")
            }
            defer { position += count }
            return bytes[position..<position + count]
        }

        mutating func readRecords(_ body: (Message) -> Void) throws(WorkoutFileError) {
            while position < end {
                let header = try take(1).first!
                if header & 0x80 != 0 {
                    // A compressed timestamp header: a data message of local type 0...3.
                    try readData(local: Int(header >> 5) & 0x03, body)
                } else if header & 0x40 != 0 {
                    try readDefinition(local: Int(header & 0x0F), developer: header & 0x20 != 0)
                } else {
                    try readData(local: Int(header & 0x0F), body)
                }
            }
        }

        mutating func readDefinition(local: Int, developer: Bool) throws(WorkoutFileError) {
            let fixed = try take(5)
            let bigEndian = fixed[fixed.startIndex + 1] == 1
            let low = UInt16(fixed[fixed.startIndex + 2]), high = UInt16(fixed[fixed.startIndex + 3])
            let global = bigEndian ? low << 8 | high : high << 8 | low
            let count = Int(fixed[fixed.startIndex + 4])
            var fields: [FieldDefinition] = []
            fields.reserveCapacity(count)
            for _ in 0..<count {
                let field = try take(3)
                fields.append(FieldDefinition(number: field[field.startIndex], size: Int(field[field.startIndex + 1]), baseType: field[field.startIndex + 2]))
            }
            var developerBytes = 0
            if developer {
                let developerCount = Int(try take(1).first!)
                for _ in 0..<developerCount { developerBytes += Int(try take(3).dropFirst().first!) }
            }
            definitions[local] = Definition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
        }

        mutating func readData(local: Int, _ body: (Message) -> Void) throws(WorkoutFileError) {
            guard let definition = definitions[local] else {
                throw WorkoutFileError("the FIT file is damaged: a record uses local message \(local) before defining it")
            }
            let wanted = definition.global == 0 || definition.global == 18
            var values: [UInt8: UInt64] = [:]
            for field in definition.fields {
                let raw = try take(field.size)
                if wanted, let value = Self.unsigned(raw, baseType: field.baseType, bigEndian: definition.bigEndian) {
                    values[field.number] = value
                }
            }
            _ = try take(definition.developerBytes)
            if wanted { body(Message(global: definition.global, values: values)) }
        }

        /// An unsigned integer field's value; `nil` for FIT's invalid value, another base type,
        /// or a size that is not the type's (an array).
        static func unsigned(_ raw: ArraySlice<UInt8>, baseType: UInt8, bigEndian: Bool) -> UInt64? {
            let size: Int, invalid: UInt64
            switch baseType {
            case 0x00, 0x02: (size, invalid) = (1, 0xFF)                  // enum, uint8
            case 0x0A: (size, invalid) = (1, 0)                           // uint8z
            case 0x84: (size, invalid) = (2, 0xFFFF)                      // uint16
            case 0x8B: (size, invalid) = (2, 0)                           // uint16z
            case 0x86: (size, invalid) = (4, 0xFFFF_FFFF)                 // uint32
            case 0x8C: (size, invalid) = (4, 0)                           // uint32z
            default: return nil
            }
            guard raw.count == size else { return nil }
            var value: UInt64 = 0
            for byte in (bigEndian ? Array(raw) : raw.reversed()) { value = value << 8 | UInt64(byte) }
            return value == invalid ? nil : value
        }
    }
}
