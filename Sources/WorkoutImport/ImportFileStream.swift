import Foundation
import WorkoutClient

/// A file read in chunks as an `InputStream`, counting the bytes it hands out (for the
/// progress estimate); what `XMLParser(stream:)` and the CSV reader read from.
///
/// XMLParser pulls 4 KiB at a time from its stream and hands each chunk to libxml2's push
/// parser, so memory stays flat whatever the file's size.
final class ImportFileStream: InputStream {
    private let handle: FileHandle?
    private let counter: ImportByteCounter
    private var finished = false
    /// The error that ended reading early, if any.
    private(set) var readError: (any Error)?

    /// A stream of the file at `path`, counting into `counter`.
    init(path: String, counter: ImportByteCounter) {
        self.handle = FileHandle(forReadingAtPath: path)
        self.counter = counter
        super.init(data: Data())
        if handle == nil { readError = ImportSourceError("cannot open \(path)") }
    }

    deinit { try? handle?.close() }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !finished }
    override var streamStatus: Stream.Status { finished ? .atEnd : .open }
    override var streamError: (any Error)? { readError }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard !finished, let handle, length > 0 else { return 0 }
        do {
            guard let data = try handle.read(upToCount: length), !data.isEmpty else {
                finished = true
                return 0
            }
            data.copyBytes(to: buffer, count: data.count)
            counter.add(data.count)
            return data.count
        } catch {
            readError = error
            finished = true
            return -1
        }
    }
}
