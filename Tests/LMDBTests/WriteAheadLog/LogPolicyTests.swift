@testable import LMDB
import Testing

/// The log's rules as a value: each event in each state, and what it answers.
@Suite("The write-ahead log's policy")
struct LogPolicyTests {
    static let record = 100

    static func limits(commits: Int = 4, bytes: Int = 1 << 20, switchAt: Int = 1 << 20, ceiling: Int = 10_000) -> LogPolicy.Limits {
        var limits = LogPolicy.Limits()
        limits.checkpointCommits = commits
        limits.checkpointBytes = bytes
        limits.switchBytes = switchAt
        limits.ceilingBytes = ceiling
        return limits
    }

    /// A policy after the opening's checkpoint of transaction 10, which started file 0 at
    /// generation 1.
    static func opened(_ limits: LogPolicy.Limits = limits()) -> LogPolicy {
        var policy = LogPolicy(limits: limits, lastCommitted: 10, checkpointed: 0, newestGeneration: 0)
        let generation = policy.planSynchronousCheckpoint()
        policy.synchronousCheckpointRecorded(10, startedAt: generation)
        return policy
    }

    /// Logs `count` commits after the last one, each `bytes` long; returns how many started a
    /// background checkpoint.
    @discardableResult
    static func log(_ policy: inout LogPolicy, _ count: Int, bytes: Int = record) -> Int {
        var started = 0
        for _ in 0..<count {
            let next = policy.lastCommitted + 1
            switch policy.commit(next, recordBytes: bytes) {
            case .append, .startAndAppend:
                if policy.appended(next, bytes: bytes) { started += 1 }
            case .checkpoint:
                Issue.record("commit \(next) checkpointed")
            }
        }
        return started
    }

    @Test("Nothing is logged before the opening's checkpoint starts a file")
    func beforeOpening() {
        var policy = LogPolicy(limits: Self.limits(), lastCommitted: 10, checkpointed: 0, newestGeneration: 3)
        #expect(policy.commit(11, recordBytes: Self.record) == .checkpoint)
        let generation = policy.planSynchronousCheckpoint()
        #expect(generation == 4)
        policy.synchronousCheckpointRecorded(11, startedAt: generation)
        #expect(policy.commit(12, recordBytes: Self.record) == .append(file: 0, generation: 4))
    }

    enum Unlogged: CaseIterable { case notRecorded, afterAnotherProcess }

    @Test("Rules 1 and 5: a commit not recorded, or after another process's, checkpoints", arguments: Unlogged.allCases)
    func unloggedCommitsCheckpoint(_ kind: Unlogged) {
        var policy = Self.opened()
        let action = switch kind {
        case .notRecorded: policy.commit(11, recordBytes: nil)
        case .afterAnotherProcess: policy.commit(12, recordBytes: Self.record)
        }
        #expect(action == .checkpoint)
        #expect(policy.mustCheckpoint)
        // Until a checkpoint covers it, even a recorded commit checkpoints.
        #expect(policy.commit(policy.lastCommitted + 1, recordBytes: Self.record) == .checkpoint)
        let generation = policy.planSynchronousCheckpoint()
        policy.synchronousCheckpointRecorded(policy.lastCommitted, startedAt: generation)
        #expect(policy.commit(policy.lastCommitted + 1, recordBytes: Self.record) == .append(file: 0, generation: generation))
    }

    @Test("Rule 2: a failed append checkpoints, and so does every commit until a checkpoint succeeds")
    func failedAppend() {
        var policy = Self.opened()
        #expect(policy.commit(11, recordBytes: Self.record) == .append(file: 0, generation: 1))
        #expect(policy.appendFailed() == .checkpoint)
        #expect(policy.commit(12, recordBytes: Self.record) == .checkpoint)
        // A checkpoint whose file could not start leaves it so.
        policy.synchronousCheckpointRecorded(12, startedAt: nil)
        #expect(policy.commit(13, recordBytes: Self.record) == .checkpoint)
        policy.synchronousCheckpointRecorded(13, startedAt: policy.planSynchronousCheckpoint())
        #expect(policy.commit(14, recordBytes: Self.record) == .append(file: 0, generation: 2))
    }

    @Test("A synchronous checkpoint whose slot failed keeps the log from the current generation")
    func failedSlot() {
        var policy = Self.opened()
        Self.log(&policy, 2)
        _ = policy.planSynchronousCheckpoint()
        policy.synchronousCheckpointFailed()
        #expect(policy.commit(13, recordBytes: Self.record) == .checkpoint)
    }

    @Test("Rule 3: a checkpoint never goes back")
    func neverBack() {
        var policy = Self.opened()
        Self.log(&policy, 3)
        policy.synchronousCheckpointRecorded(13, startedAt: policy.planSynchronousCheckpoint())
        #expect(policy.checkpointed == 13)
        policy.backgroundCheckpointEnded(recorded: 12)
        #expect(policy.checkpointed == 13)
        policy.synchronousCheckpointRecorded(11, startedAt: policy.planSynchronousCheckpoint())
        #expect(policy.checkpointed == 13)
    }

    @Test("Rule 8: a background checkpoint starts after so many commits or bytes, one at a time", arguments: [(4, 1 << 20, 100), (100, 350, 100)])
    func backgroundCheckpoints(commits: Int, bytes: Int, record: Int) {
        var policy = Self.opened(Self.limits(commits: commits, bytes: bytes, switchAt: 1 << 30, ceiling: 1 << 30))
        // The fourth commit (4 commits, or 400 bytes past 350) starts one.
        #expect(Self.log(&policy, 3, bytes: record) == 0)
        #expect(Self.log(&policy, 1, bytes: record) == 1)
        #expect(policy.checkpointInFlight)
        // While it is in flight, none starts.
        #expect(Self.log(&policy, 8, bytes: record) == 0)
        policy.backgroundCheckpointEnded(recorded: 14)
        #expect(Self.log(&policy, 1, bytes: record) == 1)
    }

    @Test("Rule 7: past the switch size the other file starts again, only once a checkpoint covers it")
    func switchFiles() {
        var policy = Self.opened(Self.limits(commits: 1 << 20, switchAt: LogFormat.headerBlockSize + 1_000))
        Self.log(&policy, 10)  // transactions 11...20 fill file 0 to the switch size
        // File 1 holds nothing: it starts at once, at a new generation.
        #expect(policy.commit(21, recordBytes: Self.record) == .startAndAppend(file: 1, generation: 2))
        #expect(policy.appended(21, bytes: Self.record) == false)
        Self.log(&policy, 9)  // 22...30 fill file 1
        // File 0 holds 11...20 and the recorded checkpoint is 10: stay in file 1.
        #expect(policy.commit(31, recordBytes: Self.record) == .append(file: 1, generation: 2))
        _ = policy.appended(31, bytes: Self.record)
        policy.backgroundCheckpointEnded(recorded: 20)
        #expect(policy.commit(32, recordBytes: Self.record) == .startAndAppend(file: 0, generation: 3))
        #expect(policy.oldestGenerationInUse == 3)
    }

    @Test("Rules 4 and 9: after a failed data sync no checkpoint starts, and past the ceiling writes are refused")
    func ceilingAfterFailedSync() {
        var policy = Self.opened(Self.limits(commits: 2, switchAt: 1 << 30, ceiling: 1_000))
        #expect(Self.log(&policy, 2) == 1)
        policy.dataSyncDidFail()
        policy.backgroundCheckpointEnded(recorded: nil)
        #expect(Self.log(&policy, 8) == 0)
        #expect(policy.refusal() == 1_000)
        // A checkpoint recorded (in a process where syncs work again: after reopening) lifts it.
        let reopened = Self.opened(Self.limits(commits: 2, switchAt: 1 << 30, ceiling: 1_000))
        #expect(reopened.refusal() == nil)
    }

    @Test("Rule 9: a recorded checkpoint covers what it was taken after, and the refusal lifts")
    func ceilingLifts() {
        var policy = Self.opened(Self.limits(commits: 5, switchAt: 1 << 30, ceiling: 900))
        #expect(Self.log(&policy, 5) == 1)  // a checkpoint of 15 starts, covering 500 bytes
        policy.backgroundCheckpointEnded(recorded: nil)  // it failed (the checkpoint file)
        Self.log(&policy, 4)
        #expect(policy.refusal() == 900)
        #expect(Self.log(&policy, 1) == 1)  // another starts, covering all 1,000
        #expect(policy.refusal() == 1_000)
        policy.backgroundCheckpointEnded(recorded: 20)
        #expect(policy.refusal() == nil)
        #expect(policy.uncoveredBytes == 0)
    }

    @Test("Closing starts no more background checkpoints, and checkpoints its commits")
    func closing() {
        var policy = Self.opened(Self.limits(commits: 1))
        #expect(policy.commit(11, recordBytes: Self.record) == .append(file: 0, generation: 1))
        let started = policy.appended(11, bytes: Self.record)
        #expect(started)
        policy.backgroundCheckpointEnded(recorded: 11)
        policy.close()
        #expect(policy.commit(12, recordBytes: Self.record) == .checkpoint)
        #expect(policy.appended(12, bytes: Self.record) == false)
    }
}
