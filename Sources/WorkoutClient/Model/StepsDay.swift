import WorkoutProtocol

/// The steps of one local day: each source's latest report and the day's figure.
public struct StepsDay: Sendable, Hashable, Codable {
    /// The day.
    public var day: LocalDate
    /// The day's figure: one source's latest report (never a sum, so a walk seen by both phone
    /// and watch counts once): the member's most trusted source that reported, else the largest.
    public var steps: Int
    /// The source the figure is (``Profile/stepsSourcePriority``); `nil` for a day without
    /// reports, or from a server that does not say.
    public var countedSource: String?
    /// Each source's latest report, ordered by source.
    public var sources: [StepsReport]
    /// The member revision of the day's latest report.
    public var revision: UInt64

    /// Creates a steps day (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - day: The day.
    ///   - steps: The day's figure; the maximum over `sources` when `nil`.
    ///   - sources: Each source's latest report.
    ///   - revision: The revision of the latest report.
    ///   - countedSource: The source the figure is.
    public init(day: LocalDate, steps: Int? = nil, sources: [StepsReport] = [], revision: UInt64 = 0, countedSource: String? = nil) {
        self.day = day
        self.steps = steps ?? sources.map(\.steps).max() ?? 0
        self.sources = sources
        self.revision = revision
        self.countedSource = countedSource
    }
}

// MARK: Wire

extension StepsDay {
    /// Creates a steps day from the wire (a malformed `day` is clamped, see
    /// ``LocalDate/init(clampingWire:)``).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_StepsDay) {
        self.init(
            day: LocalDate(clampingWire: wire.day), steps: Int(wire.steps),
            sources: wire.sources.map(StepsReport.init(wire:)), revision: wire.revision,
            countedSource: wire.countedSource.isEmpty ? nil : wire.countedSource
        )
    }
}
