import Foundation

/// The line printed on standard error each second of a run.
package enum ProgressLine {
    /// `[  3.0 s] measure    81,234 calls/s  p99   1,234.5 µs  errors 0`, or the setup's note.
    package static func render(_ sample: ProgressSample) -> String {
        let time = "[" + ReportTable.fixed(sample.elapsedSeconds, 1).leftPadded(to: 6) + " s] "
        let phase = sample.phase.padding(toLength: 8, withPad: " ", startingAt: 0)
        if !sample.note.isEmpty && sample.opsPerSecond == 0 {
            return time + phase + " " + sample.note
        }
        return time + phase + " " + ReportTable.grouped(sample.opsPerSecond).leftPadded(to: 10) + " calls/s  p99 "
            + ReportTable.fixed(sample.p99Microseconds, 1).leftPadded(to: 9) + " µs  errors \(sample.errors)"
            + (sample.note.isEmpty ? "" : "  " + sample.note)
    }
}

extension String {
    /// The string with spaces in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
