import Foundation
import Testing
@testable import WorkoutClient
@testable import WorkoutOffline

/// The folding rules on their own (``OutboxState/plan(_:now:)``): what a new write does to the
/// writes waiting for the same record.
@Suite("Outbox folding rules")
struct OutboxFoldingTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let workout = Workout(type: "running", durationSeconds: 1800, performedAt: now, timeZone: "Europe/Berlin")
    static var edited: Workout {
        var workout = workout
        workout.notes = "edited"
        return workout
    }

    /// A state holding `writes`, the first `sentCount` of them marked as possibly sent.
    static func state(_ writes: [PendingWrite], sentCount: Int = 0, refusedFirst: Bool = false) -> OutboxState {
        var state = OutboxState()
        state.apply(.header(format: OutboxRecord.format, account: "a", nextID: 1), size: 0)
        for (index, write) in writes.enumerated() {
            var entry = OutboxEntry(id: UInt64(index + 1), write: write, queuedAt: now, mayHaveBeenSent: index < sentCount)
            if refusedFirst && index == 0 { entry.refusal = WriteRefusal(code: .invalidArgument, message: "no", refusedAt: now) }
            state.apply(.queued(entry), size: 100)
        }
        return state
    }

    /// `state` after `write`.
    static func after(_ state: OutboxState, _ write: PendingWrite) -> (writes: [PendingWrite], outcome: Outbox.Queued) {
        var state = state
        let (records, outcome) = state.plan(write, now: now)
        for record in records { state.apply(record, size: 100) }
        return (state.entries.map(\.write), outcome)
    }

    @Test("An update of a log not yet sent becomes the log's fields")
    func updateFoldsIntoLog() {
        let result = Self.after(Self.state([.logWorkout(Self.workout)]), .updateWorkout(Self.edited, expectedRevision: 7))
        #expect(result.writes == [.logWorkout(Self.edited)])
        guard case .folded(let entry) = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(entry.id == 1)
    }

    @Test("An update of an update not yet sent replaces its fields and keeps the first expected revision")
    func updateFoldsIntoUpdate() {
        let result = Self.after(Self.state([.updateWorkout(Self.workout, expectedRevision: 3)]), .updateWorkout(Self.edited, expectedRevision: nil))
        #expect(result.writes == [.updateWorkout(Self.edited, expectedRevision: 3)])
    }

    @Test("A delete of a log never sent removes it: nothing is left to send")
    func deleteCancelsLog() {
        let afterEdit = Self.after(Self.state([.logWorkout(Self.workout)]), .updateWorkout(Self.edited, expectedRevision: nil))
        #expect(afterEdit.writes == [.logWorkout(Self.edited)])
        let result = Self.after(Self.state(afterEdit.writes), .deleteWorkout(Self.workout.id))
        #expect(result.writes.isEmpty)
        guard case .cancelled = result.outcome else { Issue.record("\(result.outcome)"); return }
    }

    @Test("A delete after an update not yet sent replaces the update; a second delete adds nothing")
    func deleteReplacesUpdate() {
        let result = Self.after(Self.state([.updateWorkout(Self.workout, expectedRevision: nil)]), .deleteWorkout(Self.workout.id))
        #expect(result.writes == [.deleteWorkout(Self.workout.id)])
        let again = Self.after(Self.state(result.writes), .deleteWorkout(Self.workout.id))
        #expect(again.writes == [.deleteWorkout(Self.workout.id)])
        guard case .alreadyQueued = again.outcome else { Issue.record("\(again.outcome)"); return }
    }

    @Test("A log that may have been sent, or was refused, is never folded into: the edit and the delete are queued after it")
    func noFoldingAfterSending() {
        for state in [Self.state([.logWorkout(Self.workout)], sentCount: 1), Self.state([.logWorkout(Self.workout)], refusedFirst: true)] {
            let update = Self.after(state, .updateWorkout(Self.edited, expectedRevision: nil))
            #expect(update.writes == [.logWorkout(Self.workout), .updateWorkout(Self.edited, expectedRevision: nil)])
            let delete = Self.after(state, .deleteWorkout(Self.workout.id))
            #expect(delete.writes == [.logWorkout(Self.workout), .deleteWorkout(Self.workout.id)])
        }
    }

    @Test("Writes of other records, and of another kind with the same id, are not folded")
    func otherRecords() {
        let other = Workout(type: "yoga", durationSeconds: 600, performedAt: Self.now)
        let state = Self.state([.logWorkout(Self.workout)])
        #expect(Self.after(state, .updateWorkout(other, expectedRevision: nil)).writes.count == 2)
        #expect(Self.after(state, .deleteMeal(Self.workout.id)).writes.count == 2)
    }

    @Test("A steps report replaces a waiting report of the same day and source only")
    func steps() {
        let day = LocalDate(year: 2025, month: 6, day: 1)!
        let state = Self.state([.reportSteps(StepsReport(day: day, source: "phone", steps: 100, reportedAt: Self.now))])
        let later = StepsReport(day: day, source: "phone", steps: 900, reportedAt: Self.now)
        #expect(Self.after(state, .reportSteps(later)).writes == [.reportSteps(later)])
        #expect(Self.after(state, .reportSteps(StepsReport(day: day, source: "watch", steps: 5, reportedAt: Self.now))).writes.count == 2)
        #expect(Self.after(state, .reportSteps(StepsReport(day: day.adding(days: 1), source: "phone", steps: 5, reportedAt: Self.now))).writes.count == 2)
    }
}
