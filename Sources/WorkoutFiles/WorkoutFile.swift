internal import CZlib
package import Foundation

/// A workout file of any of the formats read here, told by its first bytes: a FIT activity
/// (Garmin, Wahoo, Coros, Polar, Suunto), a GPX track or a TCX activity, gzip-compressed or not
/// (Strava's bulk export holds `*.fit.gz`, `*.gpx.gz`, `*.tcx.gz`).
package enum WorkoutFile {
    /// The namespace of ids derived from workout files (``WorkoutFileActivity/importable(format:)``).
    package static let namespace = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B03")!

    /// The largest file read, after inflating.
    package static let maxBytes = FITActivityFile.maxBytes

    /// The formats of workout files.
    package enum Kind: Sendable {
        case fit, gpx, tcx

        /// Its name in notes and errors: `FIT file`.
        package var name: String {
            switch self {
            case .fit: "FIT file"
            case .gpx: "GPX file"
            case .tcx: "TCX file"
            }
        }
    }

    /// The workouts of a file's bytes, and its format.
    ///
    /// - Parameter limit: The most bytes read, before or after inflating: ``maxBytes`` for a
    ///   file on the phone, less where many may arrive at once (the server's upload).
    /// - Throws: ``WorkoutFileError`` for bytes that are none of the formats, damaged, cut
    ///   short, or larger than `limit` (before or after inflating).
    package static func read(_ data: Data, limit: Int = maxBytes) throws(WorkoutFileError) -> (kind: Kind, contents: FITActivityFile.Contents) {
        let limit = min(limit, maxBytes)
        guard data.count <= limit else {
            throw WorkoutFileError("it is larger than \(limit >> 20) MiB: not a workout file this import reads")
        }
        let bytes = data.starts(with: [0x1F, 0x8B]) ? try gunzip(data, limit: limit) : data
        switch kind(of: bytes) {
        case .fit?: return (.fit, try FITActivityFile.read(Array(bytes)))
        case .gpx?: return (.gpx, try TrackFiles.read(bytes, tcx: false))
        case .tcx?: return (.tcx, try TrackFiles.read(bytes, tcx: true))
        case nil: throw WorkoutFileError("it is not a FIT, GPX or TCX file")
        }
    }

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

    /// `data` inflated from gzip, at most `limit` bytes.
    static func gunzip(_ data: Data, limit: Int) throws(WorkoutFileError) -> Data {
        var stream = z_stream()
        // zlib.h: windowBits 16 + 15 "to decode only the gzip format".
        guard czlib_inflateInit2(&stream, 31) == Z_OK else { throw WorkoutFileError("cannot start inflating it") }
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
            } while status == Z_OK && output.count <= limit
        }
        guard output.count <= limit else {
            throw WorkoutFileError("it inflates to more than \(limit >> 20) MiB: not a workout file this import reads")
        }
        guard status == Z_STREAM_END else { throw WorkoutFileError("its gzip data is damaged or ends early") }
        return Data(output)
    }
}
