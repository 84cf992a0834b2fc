public import Foundation
import WorkoutProtocol

/// One body-weight measurement.
///
/// To log one, create it (its ``id`` is a fresh time-ordered id) and keep the value until
/// the call succeeds: retrying with the same value never logs it twice. Logging an entry
/// newer than every other one also sets the profile's weight.
public struct WeightEntry: Sendable, Hashable, Codable, Identifiable {
    /// The record's id, chosen by the client; makes logging idempotent.
    public var id: UUID
    /// Weight in kilograms, 10...500.
    public var weightKg: Double
    /// When it was measured.
    public var measuredAt: Date
    /// The IANA time zone it was logged in; `nil` in a request means the member's
    /// profile zone.
    public var timeZone: String?
    /// The local day of ``measuredAt`` in ``timeZone``. Output only: `nil` until stored.
    public var localDay: LocalDate?
    /// Optional note, 0...256 bytes.
    public var note: String
    /// The member revision of the write that stored this entry; 0 until stored. Output only.
    public var revision: UInt64
    /// When the server stored the entry. Output only.
    public var createdAt: Date?

    /// Creates a weight entry.
    ///
    /// - Parameters:
    ///   - id: The record's id; a fresh time-ordered id by default.
    ///   - weightKg: Weight in kilograms.
    ///   - measuredAt: When it was measured; now by default.
    ///   - timeZone: IANA zone it was logged in; `nil` = the profile's zone.
    ///   - note: Optional note.
    ///   - localDay: Output only: its local day.
    ///   - revision: Output only: the revision of the write that stored it.
    ///   - createdAt: Output only: when it was stored.
    public init(
        id: UUID = .timeOrdered(), weightKg: Double, measuredAt: Date = Date(), timeZone: String? = nil,
        note: String = "", localDay: LocalDate? = nil, revision: UInt64 = 0, createdAt: Date? = nil
    ) {
        self.id = id
        self.weightKg = weightKg
        self.measuredAt = measuredAt
        self.timeZone = timeZone
        self.localDay = localDay
        self.note = note
        self.revision = revision
        self.createdAt = createdAt
    }
}

// MARK: Wire

extension WeightEntry {
    /// Creates an entry from the wire: an empty `time_zone` becomes `nil`, an unset
    /// `created_at_ms` (0) `nil`, an unset or invalid `local_day` `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_WeightEntry) {
        self.init(
            id: UUID(wireBytes: wire.id), weightKg: wire.weightKg,
            measuredAt: Date(wireMilliseconds: wire.measuredAtMs),
            timeZone: wire.timeZone.isEmpty ? nil : wire.timeZone, note: wire.note,
            localDay: wire.hasLocalDay ? LocalDate(wire: wire.localDay) : nil, revision: wire.revision,
            createdAt: Date(wireMillisecondsUnlessZero: wire.createdAtMs)
        )
    }

    /// This entry as the wire message (`nil` zone as empty, `nil` time as 0, `nil` local
    /// day unset).
    var wire: Workout_V1_WeightEntry {
        var message = Workout_V1_WeightEntry()
        message.id = id.wireBytes
        message.weightKg = weightKg
        message.measuredAtMs = measuredAt.wireMilliseconds
        message.timeZone = timeZone ?? ""
        if let localDay { message.localDay = localDay.wire }
        message.note = note
        message.revision = revision
        message.createdAtMs = createdAt.wireMilliseconds
        return message
    }
}

// MARK: Validation

extension WeightEntry {
    /// Checks this weigh-in against the server's bounds (its own validation, run on the device), as
    /// `logWeight(_:)` and `updateWeight(_:expectedRevision:)` do before sending and an `Outbox` does before queueing:
    /// call it to refuse a form's values before saving. A value out of bounds is refused with
    /// its field, never clamped into range.
    ///
    /// - Parameter now: The time event times are checked against (the server takes them up
    ///   to a day ahead of its clock); now by default.
    /// - Throws: ``WorkoutError`` `INVALID_ARGUMENT` naming the first field at fault by its
    ///   property path in ``WorkoutError/field`` (e.g. `weightKg`), with the server's message.
    public func validate(now: Date = Date()) throws(WorkoutError) {
        try RecordChecks.check(.weight(self), prefix: nil, now: now)
    }
}
