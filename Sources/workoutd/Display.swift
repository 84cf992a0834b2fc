import Foundation
import WorkoutCore

/// How commands show values: dates in the machine's time zone, sizes, ids.
enum Display {
    /// A time in milliseconds since 1970 as `2025-06-01 14:30 CEST`, in the machine's zone.
    static func time(milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm zzz"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// A duration in seconds as the largest whole unit that fits: `7d`, `12h`, `90m`, `45s`.
    static func duration(seconds: Int) -> String {
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] where seconds >= size && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

    /// A size in bytes, e.g. `1.5 MiB, 1572864 bytes`.
    static func size(bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = "bytes"
        for next in units where value >= 1024 {
            value /= 1024
            unit = next
        }
        if unit == "bytes" { return "\(bytes) bytes" }
        return String(format: "%.1f", value) + " \(unit), \(bytes) bytes"
    }

    /// A 16-byte id as a lowercase UUID string.
    static func id(_ bytes: Data) -> String {
        UUID(bytes: bytes).uuidString.lowercased()
    }

    /// Rows as left-aligned columns separated by two spaces, the first row a header.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
