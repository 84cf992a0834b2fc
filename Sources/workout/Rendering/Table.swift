/// Rows as aligned columns: a header, then the rows; text columns left-aligned, number
/// columns right-aligned; two spaces between columns; no trailing spaces.
struct Table {
    /// How a column's cells line up.
    enum Alignment: Sendable {
        /// Text.
        case left
        /// Numbers.
        case right
    }

    /// A column: its title and alignment.
    struct Column: Sendable {
        /// The header.
        var title: String
        /// How its cells line up.
        var alignment: Alignment

        /// A column titled `title`.
        init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    /// The columns.
    var columns: [Column]
    /// The rows; a row shorter than the columns is padded with empty cells.
    var rows: [[String]] = []

    /// A table with `columns` and no rows yet.
    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row.
    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table's lines: header first.
    ///
    /// - Parameter indent: What every line starts with.
    func render(indent: String = "") -> [String] {
        let all = [columns.map(\.title)] + rows.map { row in
            (0..<columns.count).map { $0 < row.count ? row[$0] : "" }
        }
        let widths = (0..<columns.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = indent
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if index > 0 { line += "  " }
                line += columns[index].alignment == .right ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
