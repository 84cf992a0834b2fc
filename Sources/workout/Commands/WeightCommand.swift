import ArgumentParser
import Foundation
import WorkoutClient

/// `workout weight`: the weight series over the last days, as a chart in the terminal.
struct WeightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weight",
        abstract: "Chart your weight over the last days.",
        discussion: "The chart is as wide as the terminal ($COLUMNS, else the window's width, else 80 columns).")

    @Option(parsing: .unconditional, help: ArgumentHelp("How many days back.", valueName: "days"))
    var days: Int = 90

    @Option(parsing: .unconditional, help: ArgumentHelp("The chart's height in lines.", valueName: "lines"))
    var height: Int = WeightChart.defaultHeight

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// How many days back.
        var days: Int
        /// The start of the range.
        var from: Date
        /// The weigh-ins, oldest first.
        var entries: [WeightEntry]
    }

    func validate() throws {
        guard (1...36_500).contains(days) else { throw ValidationError("--days must be 1 through 36500") }
        guard (2...40).contains(height) else { throw ValidationError("--height must be 2 through 40") }
    }

    func run() async throws {
        let from = Date().addingTimeInterval(-Double(days) * 86_400)
        let session = try SignedInSession()
        defer { session.close() }
        let entries = try await session.run("see your weight") { client throws(WorkoutError) in
            var entries: [WeightEntry] = []
            var token: PageToken?
            repeat {
                let page = try await client.weightProgress(from: from, pageSize: 100, pageToken: token)
                entries += page.items
                token = page.nextPageToken
            } while token != nil
            return entries
        }
        if output.json {
            try Output.printJSON(Report(days: days, from: from, entries: entries))
            return
        }
        guard let first = entries.first, let last = entries.last else {
            Output.line("No weigh-ins in the last \(Format.count(days, "day")). Log one with `workout log weight 72.4`.")
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        let change = last.weightKg - first.weightKg
        let sign = change > 0 ? "+" : change < 0 ? "−" : "±"
        Output.line("Weight over the last \(Format.count(days, "day")): \(Format.count(entries.count, "weigh-in")), \(Format.kilograms(first.weightKg)) → \(Format.kilograms(last.weightKg)) (\(sign)\(Format.kilograms(abs(change))))")
        Output.line()
        let points = entries.map { WeightChart.Point(date: $0.measuredAt, kilograms: $0.weightKg) }
        Output.lines(WeightChart.render(points, width: TerminalSize.columns(), height: height, zone: zone))
        Output.line()
        Output.lines(Self.recentTable(entries, zone: zone))
        member.printNote()
    }

    /// How many of the newest weigh-ins are listed under the chart.
    static let recentCount = 5

    /// The newest weigh-ins, newest first, with the IDs `workout edit weight` and `workout
    /// delete weight` take (shortened as the other tables shorten them, among all listed here).
    static func recentTable(_ entries: [WeightEntry], zone: TimeZone) -> [String] {
        let recent = entries.suffix(recentCount).reversed()
        let ids = ShortID.prefixes(entries.map(\.id))
        var table = Table([.init("ID"), .init("Measured"), .init("Weight", .right), .init("Note")])
        for entry in recent {
            table.append([ids[entry.id] ?? Format.id(entry.id), Format.dateTime(entry.measuredAt, in: zone), Format.kilograms(entry.weightKg), entry.note])
        }
        return ["Newest weigh-ins (IDs for `workout edit weight` and `workout delete weight`)"] + table.render(indent: "  ")
    }
}
