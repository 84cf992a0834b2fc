internal import CZlib
import Foundation
import WorkoutClient

/// A workout file brought in: a FIT activity (Garmin, Wahoo, Coros, Polar, Suunto), a GPX track
/// or a TCX activity, as a device or Garmin Connect or Strava exports it, gzip-compressed or not
/// (Strava's bulk export holds `*.fit.gz`, `*.gpx.gz`, `*.tcx.gz`). The format is told by the
/// file's first bytes, not its name. Each session or track is one workout, its id derived from
/// the file's own identity (``WorkoutFileActivity/identity``), so importing the file again, or
/// a copy of it renamed, stores nothing twice.
///
/// **Memory.** A file is read whole, at most 64 MiB (after inflating): a day recorded every
/// second is a few MB.
struct WorkoutFileSource: ImportSource {
    /// The namespace of ids derived from workout files.
    static let namespace = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B03")!

    /// The file.
    let path: String

    var totalBytes: Int64? { ImportSources.size(of: path) }

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        let name = (path as NSString).lastPathComponent
        guard (ImportSources.size(of: path) ?? 0) <= Int64(FITActivityFile.maxBytes) else {
            throw ImportSourceError("\(name) is larger than \(FITActivityFile.maxBytes >> 20) MiB: not a workout file this import reads")
        }
        var data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportSourceError("cannot read \(path): \(error.localizedDescription)")
        }
        progress.add(data.count)
        if data.starts(with: [0x1F, 0x8B]) {
            data = try Self.gunzip(data, name: name)
        }
        let contents: FITActivityFile.Contents
        let format: String
        do {
            switch Self.kind(of: data) {
            case .fit?:
                format = "FIT file"
                contents = try FITActivityFile.read(Array(data))
            case .gpx?:
                format = "GPX file"
                contents = try TrackFiles.read(data, tcx: false)
            case .tcx?:
                format = "TCX file"
                contents = try TrackFiles.read(data, tcx: true)
            case nil:
                throw ImportSourceError("it is not a FIT, GPX or TCX file")
            }
        } catch {
            throw ImportSourceError("\(name): \((error as? ImportSourceError)?.message ?? "\(error)")")
        }
        for reason in contents.skipped {
            try body(.skipped(ImportIssue(location: name, kind: .workout, reason: reason)))
        }
        for (index, activity) in contents.activities.enumerated() {
            let location = contents.activities.count == 1 ? name : "\(name) workout \(index + 1)"
            guard let workout = activity.workout(namespace: Self.namespace, format: "From a \(format)") else {
                try body(.skipped(ImportIssue(location: location, kind: .workout, reason: "a workout of under a second")))
                continue
            }
            try body(.record(.workout(workout), location: location))
        }
    }

    /// The formats of workout files.
    enum Kind { case fit, gpx, tcx }

    /// The format `data`'s first bytes say: FIT's header names `.FIT` at bytes 8...11; the XML
    /// formats by their root element within the first kilobyte.
    static func kind(of data: Data) -> Kind? {
        let bytes = Array(data.prefix(1_024))
        if bytes.count >= 12, bytes[8...11].elementsEqual(Array(".FIT".utf8)) { return .fit }
        let head = String(decoding: bytes, as: UTF8.self)
        if head.contains("<TrainingCenterDatabase") { return .tcx }
        if head.contains("<gpx") { return .gpx }
        return nil
    }

    /// `data` inflated from gzip, at most ``FITActivityFile/maxBytes``.
    static func gunzip(_ data: Data, name: String) throws(ImportSourceError) -> Data {
        var stream = z_stream()
        // zlib.h: windowBits 16 + 15 "to decode only the gzip format".
        guard czlib_inflateInit2(&stream, 31) == Z_OK else { throw ImportSourceError("\(name): cannot start inflating it") }
        defer { inflateEnd(&stream) }
        var input = Array(data)
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: target[0..<(target.count - Int(stream.avail_out))])
                }
            } while status == Z_OK && output.count <= FITActivityFile.maxBytes
        }
        guard output.count <= FITActivityFile.maxBytes else {
            throw ImportSourceError("\(name) inflates to more than \(FITActivityFile.maxBytes >> 20) MiB: not a workout file this import reads")
        }
        guard status == Z_STREAM_END else { throw ImportSourceError("\(name): its gzip data is damaged or ends early") }
        return Data(output)
    }
}
