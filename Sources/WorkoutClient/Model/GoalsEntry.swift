public import Foundation
import WorkoutProtocol

/// One entry of a member's goal history: the goals in effect from a day on, until the next
/// entry's day.
public struct GoalsEntry: Sendable, Hashable, Codable {
    /// The first day the goals apply to, in the member's zone.
    public var effectiveFrom: LocalDate
    /// The goals.
    public var goals: Goals
    /// When the entry was written.
    public var setAt: Date
    /// Who wrote it: the member, or an admin (for a member under 18).
    public var setBy: UUID

    /// Creates an entry (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - effectiveFrom: The first day.
    ///   - goals: The goals.
    ///   - setAt: When it was written.
    ///   - setBy: Who wrote it.
    public init(effectiveFrom: LocalDate, goals: Goals, setAt: Date, setBy: UUID) {
        self.effectiveFrom = effectiveFrom
        self.goals = goals
        self.setAt = setAt
        self.setBy = setBy
    }
}

// MARK: Wire

extension GoalsEntry {
    /// An entry from the wire.
    init(wire: Workout_V1_GoalsEntry) {
        self.init(effectiveFrom: LocalDate(clampingWire: wire.effectiveFrom), goals: Goals(wire: wire.goals),
                  setAt: Date(wireMilliseconds: wire.setAtMs), setBy: UUID(wireBytes: wire.setBy))
    }
}
