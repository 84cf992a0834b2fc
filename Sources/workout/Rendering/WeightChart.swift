import Foundation
import WorkoutClient

/// A line chart of a weight series for the terminal, drawn with braille characters: each
/// character cell holds 2 × 4 dots, so a chart of 60 columns and 8 rows has 120 × 32 points
/// of resolution.
///
/// ```
/// 72.0 kg ┤⠑⠢⢄⡀
/// 71.0 kg ┤   ⠈⠑⠢⢄⡀         ⢀⣀⡠⠤
/// 70.0 kg ┤       ⠈⠑⠢⢄⡠⠤⠔⠒⠊⠉⠁
///         └─────────────────────
///          2025-06-01 2025-06-03
/// ```
///
/// Time runs left to right in proportion (a gap of a week looks like one); the y-axis
/// spans the series' lowest to highest value, labelled at the top, middle and bottom rows.
/// A flat series is drawn across the middle, a single point in the middle of the plot.
/// Rendering is a pure function of its inputs.
enum WeightChart {
    /// One weigh-in.
    struct Point: Sendable, Equatable {
        /// When.
        var date: Date
        /// The weight.
        var kilograms: Double
    }

    /// The narrowest chart drawn (a narrower width is widened to this).
    static let minimumWidth = 24
    /// The widest chart drawn (a wider terminal gets this).
    static let maximumWidth = 240
    /// The default number of character rows of the plot.
    static let defaultHeight = 8

    /// Draws `points`.
    ///
    /// - Parameters:
    ///   - points: The series, in any order (drawn in time order); non-finite values are skipped.
    ///   - width: The width of every line, labels included, clamped to
    ///     ``minimumWidth``...``maximumWidth``.
    ///   - height: The plot's rows, clamped to 2...40.
    ///   - zone: The zone of the dates under the x-axis.
    /// - Returns: The lines (no trailing spaces): the plot rows, the x-axis, the first and last
    ///   dates; empty for an empty series.
    static func render(_ points: [Point], width: Int, height: Int = defaultHeight, zone: TimeZone) -> [String] {
        let series = points.filter { $0.kilograms.isFinite }.sorted { $0.date < $1.date }
        guard let first = series.first, let last = series.last else { return [] }
        let width = min(max(width, minimumWidth), maximumWidth)
        let rows = min(max(height, 2), 40)

        // The value range; a flat series gets half a kilogram either side.
        var low = series.map(\.kilograms).min() ?? first.kilograms
        var high = series.map(\.kilograms).max() ?? first.kilograms
        if high - low < 0.05 {
            low -= 0.5
            high += 0.5
        }
        let dotRows = rows * 4
        func label(row: Int) -> String {
            let center = row == 0 ? 0 : row == rows - 1 ? Double(dotRows - 1) : Double(row * 4) + 1.5
            return String(format: "%.1f kg", high - center / Double(dotRows - 1) * (high - low))
        }
        let labelled: Set<Int> = rows >= 3 ? [0, (rows - 1) / 2, rows - 1] : [0, rows - 1]
        let labels = Dictionary(uniqueKeysWithValues: labelled.map { ($0, label(row: $0)) })
        let labelWidth = labels.values.map(\.count).max() ?? 0
        let plotWidth = width - labelWidth - 2
        let dotColumns = plotWidth * 2

        // Dots: x by time, y by value (0 at the top).
        let span = last.date.timeIntervalSince(first.date)
        func dot(_ point: Point) -> (x: Int, y: Int) {
            let x = span > 0 ? Int((point.date.timeIntervalSince(first.date) / span * Double(dotColumns - 1)).rounded()) : (dotColumns - 1) / 2
            let y = Int(((high - point.kilograms) / (high - low) * Double(dotRows - 1)).rounded())
            return (min(max(x, 0), dotColumns - 1), min(max(y, 0), dotRows - 1))
        }
        var cells = [[UInt8]](repeating: [UInt8](repeating: 0, count: plotWidth), count: rows)
        func set(_ x: Int, _ y: Int) {
            cells[y / 4][x / 2] |= brailleBit(column: x % 2, row: y % 4)
        }
        var previous = dot(first)
        set(previous.x, previous.y)
        for point in series.dropFirst() {
            let next = dot(point)
            line(from: previous, to: next, plot: set)
            previous = next
        }

        var lines: [String] = []
        for (index, row) in cells.enumerated() {
            let text = labels[index].map { String(repeating: " ", count: labelWidth - $0.count) + $0 + " ┤" }
                ?? String(repeating: " ", count: labelWidth) + " │"
            lines.append(text + String(row.map { $0 == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32($0))!) }))
        }
        let margin = String(repeating: " ", count: labelWidth + 2)
        lines.append(String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: plotWidth))
        let firstDay = Format.day(first.date, in: zone)
        let lastDay = Format.day(last.date, in: zone)
        if firstDay == lastDay || plotWidth < firstDay.count + lastDay.count + 1 {
            lines.append(margin + firstDay)
        } else {
            lines.append(margin + firstDay + String(repeating: " ", count: plotWidth - firstDay.count - lastDay.count) + lastDay)
        }
        return lines.map { line in
            var trimmed = line
            while trimmed.hasSuffix(" ") { trimmed.removeLast() }
            return trimmed
        }
    }

    /// The bit of a dot in a braille cell (Unicode's dot numbering: 1 2 3 7 down the left
    /// column, 4 5 6 8 down the right).
    static func brailleBit(column: Int, row: Int) -> UInt8 {
        let left: [UInt8] = [0x01, 0x02, 0x04, 0x40]
        let right: [UInt8] = [0x08, 0x10, 0x20, 0x80]
        return column == 0 ? left[row] : right[row]
    }

    /// Plots the dots of a straight line between two dots (Bresenham), both ends included.
    private static func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), plot: (Int, Int) -> Void) {
        var (x, y) = start
        let dx = abs(end.x - x), dy = -abs(end.y - y)
        let stepX = x < end.x ? 1 : -1, stepY = y < end.y ? 1 : -1
        var error = dx + dy
        while true {
            plot(x, y)
            if x == end.x && y == end.y { return }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += stepX
            }
            if doubled <= dx {
                error += dx
                y += stepY
            }
        }
    }
}
