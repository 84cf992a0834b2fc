public import Foundation
import WorkoutProtocol

/// One device's step count for one local day.
///
/// The server keeps one report per (day, source): a later report of the same source
/// replaces the earlier one, an older one is ignored. Reporting needs no id.
public struct StepsReport: Sendable, Hashable, Codable {
    /// The local day counted, as the reporting device saw it.
    public var day: LocalDate
    /// Which device or app counted, free text (1...64 bytes), compared exactly; e.g.
    /// `"phone"`, `"watch"`, `"manual"`.
    public var source: String
    /// Steps counted that day by this source so far, 0...200,000.
    public var steps: Int
    /// When the device produced this figure; a report older than the stored one for the
    /// same (day, source) is ignored.
    public var reportedAt: Date
    /// The member revision of the write that stored this report; 0 until stored. Output only.
    public var revision: UInt64

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - day: The local day counted.
    ///   - source: The device or app that counted.
    ///   - steps: Steps counted that day so far.
    ///   - reportedAt: When the device produced the figure; now by default.
    ///   - revision: Output only: the revision of the write that stored it.
    public init(day: LocalDate, source: String, steps: Int, reportedAt: Date = Date(), revision: UInt64 = 0) {
        self.day = day
        self.source = source
        self.steps = steps
        self.reportedAt = reportedAt
        self.revision = revision
    }
}

// MARK: Wire

extension StepsReport {
    /// Creates a report from the wire (a malformed `day` is clamped, see
    /// ``LocalDate/init(clampingWire:)``).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_StepsReport) {
        self.init(
            day: LocalDate(clampingWire: wire.day), source: wire.source, steps: Int(wire.steps),
            reportedAt: Date(wireMilliseconds: wire.reportedAtMs), revision: wire.revision
        )
    }

    /// This report as the wire message. The calls that send it check it first
    /// (``validate(now:)``); a count that would still not fit the wire is refused by name
    /// here, never clamped.
    ///
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` for steps below 0 or above 32 bits.
    func wire() throws(WorkoutError) -> Workout_V1_StepsReport {
        var message = Workout_V1_StepsReport()
        message.day = day.wire
        message.source = source
        message.steps = try WireCount.exact(steps, field: "steps", wireField: "report.steps")
        message.reportedAtMs = reportedAt.wireMilliseconds
        message.revision = revision
        return message
    }
}

// MARK: Validation

extension StepsReport {
    /// Checks this report against the server's bounds (its own validation, run on the device), as
    /// `reportSteps(_:)` do before sending and an `Outbox` does before queueing:
    /// call it to refuse a form's values before saving. A value out of bounds is refused with
    /// its field, never clamped into range.
    ///
    /// - Parameter now: The time event times are checked against (the server takes them up
    ///   to a day ahead of its clock); now by default.
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the first field at fault by its
    ///   property path in ``WorkoutError/field`` (e.g. `steps`), with the server's message.
    public func validate(now: Date = Date()) throws(WorkoutError) {
        try RecordChecks.check(.steps(self), prefix: nil, now: now)
    }
}
