import Foundation
import Testing
@testable import workout

/// The braille weight chart: exact output, and its edge cases.
@Suite("Weight chart")
struct WeightChartTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2025-06-01T00:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_748_736_000)

    static func point(day: Double, _ kilograms: Double) -> WeightChart.Point {
        WeightChart.Point(date: start.addingTimeInterval(day * 86_400), kilograms: kilograms)
    }

    /// Checked by hand: 21 columns × 3 rows of cells are 42 × 12 dots; the points land on
    /// dots (0, 0), (21, 11) and (41, 6), joined by straight lines.
    @Test("A small series draws exactly this")
    func smallSeries() {
        let lines = WeightChart.render(
            [Self.point(day: 0, 72), Self.point(day: 1, 70), Self.point(day: 2, 71)], width: 30, height: 3, zone: Self.utc)
        #expect(lines == [
            "72.0 kg ┤⠑⠢⢄⡀",
            "71.0 kg ┤   ⠈⠑⠢⢄⡀         ⢀⣀⡠⠤",
            "70.0 kg ┤       ⠈⠑⠢⢄⡠⠤⠔⠒⠊⠉⠁",
            "        └─────────────────────",
            "         2025-06-01 2025-06-03",
        ], Comment(rawValue: "\n" + lines.joined(separator: "\n")))
    }

    @Test("A flat series is a line across the middle, labelled half a kilogram either side")
    func flat() {
        let lines = WeightChart.render(
            (0..<5).map { Self.point(day: Double($0), 72.4) }, width: 40, height: 2, zone: Self.utc)
        #expect(lines == [
            "72.9 kg ┤",
            "71.9 kg ┤⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉",
            "        └───────────────────────────────",
            "         2025-06-01           2025-06-05",
        ], Comment(rawValue: "\n" + lines.joined(separator: "\n")))
    }

    @Test("A single point sits in the middle, with its date alone under the axis")
    func singlePoint() {
        let lines = WeightChart.render([Self.point(day: 0, 80)], width: 24, height: 2, zone: Self.utc)
        #expect(lines.count == 4)
        #expect(lines[0] == "80.5 kg ┤")
        #expect(lines[1] == "79.5 kg ┤       ⠁")
        #expect(lines[3] == "         2025-06-01")
    }

    @Test("Every line fits the width; too narrow widens to the minimum, too wide is capped", arguments: [1, 24, 37, 80, 157, 240, 1_000])
    func widthBounds(width: Int) {
        let series = (0..<30).map { Self.point(day: Double($0) * 3, 70 + sin(Double($0) / 3) * 4) }
        let lines = WeightChart.render(series, width: width, zone: Self.utc)
        let expected = min(max(width, WeightChart.minimumWidth), WeightChart.maximumWidth)
        #expect(lines.count == WeightChart.defaultHeight + 2)
        #expect(lines.allSatisfy { $0.count <= expected })
        #expect(lines[WeightChart.defaultHeight].count == expected, "the x-axis spans the full width")
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test("Points come in any order; an empty series draws nothing")
    func orderAndEmpty() {
        let ordered = [Self.point(day: 0, 72), Self.point(day: 1, 70), Self.point(day: 2, 71)]
        #expect(WeightChart.render(ordered.reversed(), width: 50, zone: Self.utc) == WeightChart.render(ordered, width: 50, zone: Self.utc))
        #expect(WeightChart.render([], width: 80, zone: Self.utc).isEmpty)
    }

    @Test("Braille dots are numbered as Unicode says")
    func brailleBits() {
        let bits = (0..<4).map { WeightChart.brailleBit(column: 0, row: $0) } + (0..<4).map { WeightChart.brailleBit(column: 1, row: $0) }
        #expect(bits == [0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80])
    }
}
