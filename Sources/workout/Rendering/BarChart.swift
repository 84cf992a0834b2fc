/// Horizontal bars for the terminal, one per labelled row, drawn with the eighth blocks
/// (`▏▎▍▌▋▊▉█`) so a bar of 20 columns has 160 steps of resolution:
///
/// ```
///   Mon 01  ████████████████▌       2,100 kcal
///   Tue 02  ███████▉                1,010 kcal
///   Wed 03                              0 kcal
/// ```
///
/// The longest bar fills the bar column; every other is in proportion to it; a value above
/// zero always shows at least an eighth. Rendering is a pure function of its inputs.
enum BarChart {
    /// One row: its label, its value (what the bar measures) and the value as text.
    struct Row: Sendable, Equatable {
        /// The label before the bar, e.g. `Mon 01`.
        var label: String
        /// The value; negative and non-finite values draw no bar.
        var value: Double
        /// The value as shown after the bar, e.g. `2,100 kcal`.
        var text: String
    }

    /// The narrowest bar column drawn.
    static let minimumBarWidth = 8
    /// The widest bar column drawn.
    static let maximumBarWidth = 60

    /// The chart's lines.
    ///
    /// - Parameters:
    ///   - rows: The rows, in order.
    ///   - width: The width of every line, labels and values included (the terminal's);
    ///     the bar column is what is left, clamped to ``minimumBarWidth``...``maximumBarWidth``.
    ///   - indent: What every line starts with.
    /// - Returns: One line per row, no trailing spaces.
    static func render(_ rows: [Row], width: Int, indent: String = "  ") -> [String] {
        let labelWidth = rows.map(\.label.count).max() ?? 0
        let textWidth = rows.map(\.text.count).max() ?? 0
        let barWidth = min(maximumBarWidth, max(minimumBarWidth, width - indent.count - labelWidth - textWidth - 4))
        let largest = rows.map(\.value).filter { $0.isFinite && $0 > 0 }.max() ?? 0
        return rows.map { row in
            let bar = largest > 0 ? Self.bar(row.value / largest, width: barWidth) : ""
            let label = row.label + String(repeating: " ", count: labelWidth - row.label.count)
            let text = String(repeating: " ", count: textWidth - row.text.count) + row.text
            var line = "\(indent)\(label)  \(bar)\(String(repeating: " ", count: barWidth - bar.count))  \(text)"
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// A bar for `fraction` (0...1) of `width` columns, in eighths; at least an eighth for a
    /// fraction above zero.
    static func bar(_ fraction: Double, width: Int) -> String {
        guard fraction.isFinite, fraction > 0 else { return "" }
        let eighths = max(1, Int((min(fraction, 1) * Double(width * 8)).rounded()))
        let (full, rest) = eighths.quotientAndRemainder(dividingBy: 8)
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][rest]
        return String(repeating: "█", count: full) + partial
    }
}
