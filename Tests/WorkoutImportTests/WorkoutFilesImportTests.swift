import ClientTestSupport
import CZlib
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
@testable import WorkoutImport
import WorkoutFiles

/// A FIT file written here from the published FIT protocol and profile, byte by byte, with the
/// CRC computed by the protocol's own nibble-table algorithm (not the reader's), so the reader
/// is checked against the format and not against itself.
struct FITWriter {
    private var records: [UInt8] = []

    /// The FIT epoch (1989-12-31T00:00:00Z) in Unix seconds.
    static let epoch: Int64 = 631_065_600

    /// Seconds since the FIT epoch of a Unix time.
    static func time(_ date: Date) -> UInt64 { UInt64(Int64(date.timeIntervalSince1970) - epoch) }

    /// A definition message: (field number, size, base type) each, and developer fields' sizes.
    mutating func define(local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)], developerSizes: [UInt8] = [], bigEndian: Bool = false) {
        records.append(0x40 | (developerSizes.isEmpty ? 0 : 0x20) | local)
        records += [0, bigEndian ? 1 : 0]
        records += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        records.append(UInt8(fields.count))
        for (number, size, type) in fields { records += [number, size, type] }
        if !developerSizes.isEmpty {
            records.append(UInt8(developerSizes.count))
            for (index, size) in developerSizes.enumerated() { records += [UInt8(index), size, 0] }
        }
        definitions[local] = (fields.map { Int($0.1) }, bigEndian)
    }

    private var definitions: [UInt8: ([Int], Bool)] = [:]

    /// A data message of `local`, each value written in its field's size, then developer bytes;
    /// with a compressed timestamp header when `timeOffset` is given (local 0...3).
    mutating func data(local: UInt8, _ values: [UInt64], developer: [UInt8] = [], timeOffset: UInt8? = nil) {
        let (sizes, bigEndian) = definitions[local]!
        precondition(sizes.count == values.count)
        if let timeOffset {
            records.append(0x80 | (local << 5) | (timeOffset & 0x1F))
        } else {
            records.append(local)
        }
        for (size, value) in zip(sizes, values) {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
            records += bigEndian ? bytes.reversed() : bytes
        }
        records += developer
    }

    /// The file: a 14-byte header (with its CRC), the records, the file's CRC.
    func file() -> [UInt8] {
        var header: [UInt8] = [14, 0x20, 0x08, 0x08]
        let size = UInt32(records.count)
        header += [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
        header += Array(".FIT".utf8)
        let headerCRC = Self.crc(header)
        header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        let body = header + records
        let crc = Self.crc(body)
        return body + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// The FIT protocol's CRC, as its document gives it: a nibble at a time through a table.
    static func crc(_ bytes: [UInt8]) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc: UInt16 = 0
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }

    /// An activity file: `file_id`, `points` records a second apart (position, heart rate,
    /// distance; a developer field each; every tenth with a compressed timestamp header), then
    /// one session per entry of `sessions`: (sport, sub-sport, start, seconds, metres, ascent,
    /// kcal, average and maximum heart rate).
    static func activity(
        serial: UInt64 = 3_912_345_678, created: Date, points: Int = 0,
        sessions: [(sport: UInt64, subSport: UInt64, start: Date, seconds: Double, metres: Double, ascent: UInt64, kcal: UInt64, average: UInt64, maximum: UInt64)]
    ) -> [UInt8] {
        var writer = FITWriter()
        writer.define(local: 0, global: 0, fields: [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)])
        writer.data(local: 0, [4, 1, 3_415, serial, time(created)])
        // A developer's field (a running power app's, say): its developer_data_id (207) and
        // field_description (206), then records, big-endian, carrying it.
        writer.define(local: 3, global: 207, fields: [(3, 1, 0x02)])
        writer.data(local: 3, [0])
        writer.define(local: 3, global: 206, fields: [(0, 1, 0x02), (1, 1, 0x02), (2, 1, 0x02)])
        writer.data(local: 3, [0, 0, 0x84])
        writer.define(local: 1, global: 20, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02), (5, 4, 0x86)],
                      developerSizes: [2], bigEndian: true)
        for index in 0..<points {
            let values: [UInt64] = [time(created) + UInt64(index), UInt64(UInt32(bitPattern: 625_000_000 + Int32(index))), 160_000_000, 140, UInt64(index * 300)]
            writer.data(local: 1, values, developer: [0x01, 0x2C], timeOffset: index % 10 == 9 ? UInt8(index % 32) : nil)
        }
        writer.define(local: 2, global: 18, fields: [
            (253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00), (6, 1, 0x00), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86),
            (11, 2, 0x84), (16, 1, 0x02), (17, 1, 0x02), (22, 2, 0x84),
        ])
        for session in sessions {
            let start = time(session.start)
            writer.data(local: 2, [
                start + UInt64(session.seconds), start, session.sport, session.subSport,
                UInt64(session.seconds * 1_000) + 4_000, UInt64(session.seconds * 1_000), UInt64(session.metres * 100),
                session.kcal, session.average, session.maximum, session.ascent,
            ])
        }
        return writer.file()
    }
}

@Suite("Workout files: FIT, GPX, TCX")
struct WorkoutFilesImportTests {
    static let start = Date(timeIntervalSince1970: 1_793_600_000)   // 2026-11-02T…Z

    static func events(_ path: String) throws -> (workouts: [Workout], issues: [ImportIssue]) {
        let read = try AppleHealthImportTests.events(path, format: .workoutFile)
        return (read.records.compactMap { if case .workout(let workout) = $0 { workout } else { nil } }, read.issues)
    }

    /// A GPX track of `points` points a second apart, due north along a meridian 2.5 m apart,
    /// its heights rising 1,200 m in all with ±1 m of noise, heart rate 120...179.
    static func gpx(points: Int, type: String? = "running", name: String = "Morning Run") -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><name>\#(name)</name>"#
        if let type { text += "<type>\(type)</type>" }
        text += "<trkseg>"
        let formatter = ISO8601DateFormatter()
        let metresPerDegree = 6_371_008.8 * .pi / 180
        for index in 0..<points {
            let latitude = 47.0 + Double(index) * 2.5 / metresPerDegree
            let height = 400 + Double(index) * 1_200 / Double(points - 1) + (index % 2 == 0 ? 1 : -1)
            let time = formatter.string(from: start.addingTimeInterval(Double(index)))
            text += #"<trkpt lat="\#(latitude)" lon="8.5"><ele>\#(height)</ele><time>\#(time)</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\#(120 + index % 60)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>"#
        }
        return text + "</trkseg></trk></gpx>"
    }

    /// A TCX activity of two laps: 20 min (3,000 m, 250 kcal, 140/165 bpm) and 10 min (1,400 m,
    /// 130 kcal, 155/172 bpm), with trackpoints climbing 60 m.
    static let tcx = """
    <?xml version="1.0" encoding="UTF-8"?>
    <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
     <Activities><Activity Sport="Biking"><Id>2026-11-03T07:00:00Z</Id>
      <Lap StartTime="2026-11-03T07:00:00Z"><TotalTimeSeconds>1200</TotalTimeSeconds><DistanceMeters>3000</DistanceMeters><Calories>250</Calories>
       <AverageHeartRateBpm><Value>140</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>165</Value></MaximumHeartRateBpm>
       <Track><Trackpoint><Time>2026-11-03T07:00:00Z</Time><AltitudeMeters>100</AltitudeMeters><HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>
        <Trackpoint><Time>2026-11-03T07:10:00Z</Time><AltitudeMeters>130</AltitudeMeters></Trackpoint></Track></Lap>
      <Lap StartTime="2026-11-03T07:20:00Z"><TotalTimeSeconds>600</TotalTimeSeconds><DistanceMeters>1400</DistanceMeters><Calories>130</Calories>
       <AverageHeartRateBpm><Value>155</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>172</Value></MaximumHeartRateBpm>
       <Track><Trackpoint><Time>2026-11-03T07:25:00Z</Time><AltitudeMeters>129</AltitudeMeters></Trackpoint>
        <Trackpoint><Time>2026-11-03T07:29:00Z</Time><AltitudeMeters>160</AltitudeMeters></Trackpoint></Track></Lap>
     </Activity></Activities>
    </TrainingCenterDatabase>
    """

    static let run = (sport: UInt64(1), subSport: UInt64(0), start: start, seconds: 2_712.5, metres: 8_042.37, ascent: UInt64(87), kcal: UInt64(612), average: UInt64(152), maximum: UInt64(181))

    @Test("A FIT run: its kind, start, timer time, distance, climb, energy and heart rate; records, a developer field and compressed timestamps stepped over")
    func fitRun() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/Morning_Run.fit"
            try Data(FITWriter.activity(created: Self.start, points: 600, sessions: [Self.run])).write(to: URL(fileURLWithPath: path))
            #expect(ImportFormat.guess(path: path) == .workoutFile)
            let (workouts, issues) = try Self.events(path)
            #expect(issues.isEmpty)
            let run = try #require(workouts.first)
            #expect(workouts.count == 1)
            #expect(run.type == "running" && run.performedAt == Self.start && run.durationSeconds == 2_713)
            #expect(run.distanceM == 8_042 && run.elevationGainM == 87 && run.caloriesBurned == 612, "\(run)")
            #expect(run.averageHeartRate == 152 && run.maxHeartRate == 181 && run.notes == "From a FIT file" && run.location == nil)
        }
    }

    @Test("A FIT triathlon is three workouts (swim, bike, run), its transitions none; a strength session by its sub-sport")
    func fitMultisport() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/tri.fit"
            let leg = { (sport: UInt64, sub: UInt64, minutes: Double) in
                (sport: sport, subSport: sub, start: Self.start.addingTimeInterval(minutes * 60), seconds: 600.0, metres: 1_000.0, ascent: UInt64(0), kcal: UInt64(100), average: UInt64(140), maximum: UInt64(150))
            }
            let sessions = [leg(5, 18, 0), leg(3, 0, 10), leg(2, 0, 12), leg(3, 0, 22), leg(1, 0, 24), leg(10, 20, 60)]
            try Data(FITWriter.activity(created: Self.start, sessions: sessions)).write(to: URL(fileURLWithPath: path))
            let (workouts, _) = try Self.events(path)
            #expect(workouts.map(\.type) == ["swimming", "cycling", "running", "strength"])
            #expect(workouts.map(\.location) == [.outdoor, nil, nil, nil])   // open water
            #expect(Set(workouts.map(\.id)).count == 4)
        }
    }

    @Test("A damaged FIT file, a truncated one, one that is not FIT, and a definition never made are refused whole, in words")
    func fitRefused() throws {
        try withTemporaryDirectory { directory in
            let good = FITWriter.activity(created: Self.start, points: 50, sessions: [Self.run])
            var flipped = good
            flipped[200] ^= 0x40
            var noDefinition = FITWriter()
            noDefinition.define(local: 0, global: 0, fields: [(0, 1, 0x00)])
            noDefinition.data(local: 0, [4])
            var undefined = noDefinition.file()
            // Point the data message at local type 5, which nothing defined, and fix the checks.
            undefined[14 + 3 + 3 + 3] = 0x05
            let body = Array(undefined.dropLast(2))
            let crc = FITWriter.crc(body)
            undefined = body + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
            let cases: [(String, [UInt8], String)] = [
                ("damaged.fit", flipped, "check (CRC) does not match"),
                ("truncated.fit", Array(good.prefix(good.count - 40)), "ends early"),
                ("notfit.fit", Array("hello, this is not a FIT file at all".utf8), "not a FIT, GPX or TCX file"),
                ("undefined.fit", undefined, "before defining it"),
            ]
            for (name, bytes, words) in cases {
                let path = directory + "/" + name
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                #expect {
                    _ = try Self.events(path)
                } throws: { error in
                    let message = (error as? ImportSourceError)?.message ?? ""
                    return message.hasPrefix(name) && message.contains(words)
                }
            }
        }
    }

    @Test("3,000 FIT files damaged at random with their checks made right again: each is read or refused in words, never a crash or a hang")
    func fitFuzzed() {
        let good = FITWriter.activity(created: Self.start, points: 40, sessions: [Self.run, Self.run])
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for round in 0..<3_000 {
            var bytes = Array(good.dropLast(2))
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 14..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 5 == 0 { bytes.removeLast(Int.random(in: 0..<(bytes.count - 14), using: &generator)) }
            // The header's record count as it now is, and both checks right: the records are read.
            let size = UInt32(bytes.count - 14)
            bytes[4...7] = [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            let headerCRC = FITWriter.crc(Array(bytes[0..<12]))
            bytes[12...13] = [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
            let crc = FITWriter.crc(bytes)
            bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
            do {
                let contents = try FITActivityFile.read(bytes)
                #expect(contents.activities.count <= 2 * 64)
            } catch {
                refused += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(refused > 0)
    }

    @Test("A 10,000-point GPX track: its kind, duration, distance along its points, climb through GPS noise, heart rate; gzip-compressed the same")
    func gpxTrack() throws {
        try withTemporaryDirectory { directory in
            let text = Self.gpx(points: 10_000)
            let path = directory + "/Morning_Run.gpx"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let (workouts, issues) = try Self.events(path)
            #expect(issues.isEmpty)
            let run = try #require(workouts.first)
            #expect(run.type == "running" && run.performedAt == Self.start && run.durationSeconds == 9_999)
            // 9,999 steps of 2.5 m due north.
            #expect(abs((run.distanceM ?? 0) - 24_998) <= 1, "\(String(describing: run.distanceM))")
            // 1,200 m of rise (±1 m of noise does not count; up to the threshold at either end may).
            #expect(abs((run.elevationGainM ?? 0) - 1_200) <= 5, "\(String(describing: run.elevationGainM))")
            #expect(run.maxHeartRate == 179 && run.averageHeartRate == 149)   // 120...179 over and over: 149.46
            #expect(run.notes == "From a GPX file" && run.location == .outdoor)   // it moved

            let zipped = directory + "/Morning_Run.gpx.gz"
            try Data(try Self.gzip(Array(text.utf8))).write(to: URL(fileURLWithPath: zipped))
            #expect(ImportFormat.guess(path: zipped) == .workoutFile)
            #expect(try Self.events(zipped).workouts == workouts)
            // Without a type it is "other"; a track without times is skipped, said why.
            let untyped = directory + "/walk.gpx"
            try Data(Self.gpx(points: 3, type: nil).utf8).write(to: URL(fileURLWithPath: untyped))
            #expect(try Self.events(untyped).workouts.map(\.type) == ["other"])
            let timeless = directory + "/timeless.gpx"
            try Data(#"<gpx><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#.utf8).write(to: URL(fileURLWithPath: timeless))
            let read = try Self.events(timeless)
            #expect(read.workouts.isEmpty && read.issues.map(\.reason) == ["a GPX track without timed points"])
            let broken = directory + "/broken.gpx"
            try Data(Self.gpx(points: 5).dropLast(30).utf8).write(to: URL(fileURLWithPath: broken))
            #expect(throws: ImportSourceError.self) { try Self.events(broken) }
        }
    }

    @Test("A TCX activity: its laps summed, their heart rate weighted by time, the climb from its trackpoints")
    func tcxActivity() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ride.tcx"
            try Data(Self.tcx.utf8).write(to: URL(fileURLWithPath: path))
            let ride = try #require(try Self.events(path).workouts.first)
            #expect(ride.type == "cycling" && ride.durationSeconds == 1_800 && ride.distanceM == 4_400 && ride.caloriesBurned == 380)
            #expect(ride.performedAt == ISO8601DateFormatter().date(from: "2026-11-03T07:00:00Z"))
            #expect(ride.averageHeartRate == 145 && ride.maxHeartRate == 172)   // (140 × 20 + 155 × 10) / 30
            #expect(ride.elevationGainM == 60)
            #expect(ride.location == nil)   // no positions: a trainer, perhaps                                 // 100 → 130, then (129 is noise) → 160
        }
    }

    @Test("Through a real server: a FIT, a GPX and a TCX file imported twice, a renamed copy, and the same files posted to the upload store each workout once")
    func importedOnce() async throws {
        try await withTemporaryDirectory { directory in
            let files = [
                ("run.fit", Data(FITWriter.activity(created: Self.start, points: 100, sessions: [Self.run]))),
                ("hike.gpx", Data(Self.gpx(points: 500, type: "hiking", name: "Hike").utf8)),
                ("ride.tcx", Data(Self.tcx.utf8)),
            ]
            for (name, data) in files { try data.write(to: URL(fileURLWithPath: directory + "/" + name)) }
            try FileManager.default.copyItem(atPath: directory + "/run.fit", toPath: directory + "/copy of run.fit")
            try await LiveServer.run { live in
                let client = live.client()
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                for (name, _) in files {
                    let report = try await ImportSession(source: ImportSources.open(path: directory + "/" + name, format: .workoutFile), options: ImportOptions())
                        .run(client: client)
                    #expect(report.recordsStored == 1, "\(name)")
                }
                for name in files.map(\.0) + ["copy of run.fit"] {
                    let again = try await ImportSession(source: ImportSources.open(path: directory + "/" + name, format: .workoutFile), options: ImportOptions())
                        .run(client: client)
                    #expect(again.recordsStored == 0 && again.unchanged == 1, "\(name)")
                }
                let history = try await client.workoutHistory().items
                #expect(history.map(\.type).sorted() == ["cycling", "hiking", "running"])
                let run = try #require(history.first { $0.type == "running" })
                #expect(run.distanceM == 8_042 && run.averageHeartRate == 152 && run.caloriesBurned == 612)
                #expect(history.first { $0.type == "hiking" }?.location == .outdoor)   // kept through the server
                #expect(try await client.profile().totals.totalWorkouts == 3)

                // The same files posted to the server's upload: the same ids, nothing stored again.
                let token = try await client.createDeviceToken(name: "Garmin sync script", scopes: [.import]).token
                func upload(_ body: [UInt8], contentType: String?) async throws -> (status: Int, text: String) {
                    try await blocking {
                        let http = try HTTPTestClient(port: live.port)
                        let answer = try http.request("POST", "/ingest/workout-file", contentType: contentType, body: body,
                                                      headers: [("Authorization", "Bearer \(token.base64)")])
                        return (answer.status, answer.text)
                    }
                }
                for ((name, data), type) in zip(files, ["application/vnd.ant.fit", "application/gpx+xml", nil]) {
                    let posted = try await upload(Array(data), contentType: type)
                    #expect(posted.status == 200 && posted.text.contains(#""unchanged":1"#) && posted.text.contains(#""workouts":0"#), "\(name): \(posted)")
                }
                let zipped = try await upload(try Self.gzip(Array(files[1].1)), contentType: "application/gzip")
                #expect(zipped.status == 200 && zipped.text.contains(#""unchanged":1"#), "\(zipped)")
                // Another watch's file is a workout of its own; a file that is none is refused in words.
                let other = FITWriter.activity(serial: 42, created: Self.start.addingTimeInterval(86_400), sessions: [Self.run])
                let stored = try await upload(other, contentType: "application/octet-stream")
                #expect(stored.status == 200 && stored.text.contains(#""workouts":1"#), "\(stored)")
                var damaged = other
                damaged[30] ^= 0xFF
                let refused = try await upload(damaged, contentType: "application/octet-stream")
                #expect(refused.status == 400 && refused.text.contains("check (CRC) does not match"), "\(refused)")
                #expect(try await client.profile().totals.totalWorkouts == 4)
            }
        }
    }

    /// A zip archive of `files` (name, bytes), written by Python's zipfile, deflated.
    static func writeZip(_ files: [(String, [UInt8])], to path: String, directory: String) throws {
        var arguments = [path]
        for (index, (name, bytes)) in files.enumerated() {
            let file = directory + "/zip-part-\(index)"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            arguments += [file, name]
        }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                for source, name in zip(sys.argv[2::2], sys.argv[3::2]):
                    z.write(source, name)
            """] + arguments
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
    }

    @Test("A Strava-style bulk export: its FIT, GPX and TCX files (gzip-compressed or not) come in with the ids they have alone; a damaged one is named and skipped; other files are not read", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func bulkExport() async throws {
        try await withTemporaryDirectory { directory in
            let fit = FITWriter.activity(created: Self.start, points: 100, sessions: [Self.run])
            let gpx = Array(Self.gpx(points: 500, type: "hiking", name: "Hike").utf8)
            var damaged = FITWriter.activity(serial: 7, created: Self.start, sessions: [Self.run])
            damaged[40] ^= 0xFF
            let archive = directory + "/export_12345.zip"
            try Self.writeZip([
                ("activities/1001.fit.gz", try Self.gzip(fit)), ("activities/1002.gpx", gpx),
                ("activities/1003.tcx.gz", try Self.gzip(Array(Self.tcx.utf8))), ("activities/1004.fit", damaged),
                ("activities.csv", Array("Activity ID,Activity Name\n1001,Morning Run\n".utf8)), ("media/photo.jpg", [0xFF, 0xD8, 0xFF]),
                ("__MACOSX/activities/._1002.gpx", [0, 5, 22, 7]),
            ], to: archive, directory: directory)
            #expect(ImportFormat.guess(path: archive) == .workoutFile)
            let (workouts, issues) = try Self.events(archive)
            #expect(workouts.map(\.type) == ["running", "hiking", "cycling"])
            #expect(issues.count == 1 && issues[0].location == "export_12345.zip: activities/1004.fit", "\(issues)")
            #expect(issues.first?.reason.contains("check (CRC) does not match") == true, "\(issues)")
            // The same ids as each file alone.
            let alone = directory + "/1001.fit"
            try Data(fit).write(to: URL(fileURLWithPath: alone))
            #expect(try Self.events(alone).workouts.map(\.id) == [workouts[0].id])
            // Through a real server: the archive after its first file alone stores the two others.
            try await LiveServer.run { live in
                let client = live.client()
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                _ = try await ImportSession(source: ImportSources.open(path: alone, format: .workoutFile)).run(client: client)
                let report = try await ImportSession(source: ImportSources.open(path: archive, format: .workoutFile)).run(client: client)
                #expect(report.recordsStored == 2 && report.unchanged == 1, "\(report)")
                #expect(try await client.profile().totals.totalWorkouts == 3)
            }
            // An archive of no workout file says so.
            let empty = directory + "/photos.zip"
            try Self.writeZip([("media/photo.jpg", [0xFF, 0xD8, 0xFF])], to: empty, directory: directory)
            #expect(throws: ImportSourceError.self) { try Self.events(empty) }
        }
    }

    /// `bytes` in gzip, as Strava's bulk export compresses its activities.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        #expect(czlib_deflateInit2(&stream, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK)
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + 1_024)
        let produced: Int = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                _ = deflate(&stream, Z_FINISH)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
