import Dispatch
import Foundation
import LMDB
import Storage
import Synchronization
import Testing
import TestSupport

@Suite("Group commit")
struct GroupCommitTests {
    struct Refused: Error, Equatable { let index: Int }

    @Test("Concurrent writers each get their own result; failures leave no trace; commits are shared")
    func concurrentWriters() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            let threads = 16
            let perThread = 200
            let results = Mutex<[Int: Result<UInt32, any Error>]>([:])
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                let done = DispatchSemaphore(value: 0)
                for item in 0..<perThread {
                    let index = thread * perThread + item
                    store.writer.submit({ txn in
                        try txn.put([UInt8(index % 256)], forKey: UInt32(index), in: table)
                        // Every seventh operation writes, then fails: its write must vanish.
                        if index % 7 == 0 { throw Refused(index: index) }
                        return UInt32(index) * 2
                    }, completion: { result in
                        results.withLock { $0[index] = result }
                        done.signal()
                    })
                }
                for _ in 0..<perThread { done.wait() }
            }
            let all = results.withLock { $0 }
            #expect(all.count == threads * perThread)
            for (index, result) in all {
                switch result {
                case .success(let value):
                    #expect(index % 7 != 0 && value == UInt32(index) * 2)
                case .failure(let error):
                    #expect(index % 7 == 0 && (error as? Refused) == Refused(index: index))
                }
            }
            try store.read { txn throws in
                for index in 0..<(threads * perThread) {
                    let stored = try txn.get(UInt32(index), from: table)
                    #expect(stored == (index % 7 == 0 ? nil : [UInt8(index % 256)]))
                }
            }
            let stats = store.writer.statistics
            #expect(stats.operations == threads * perThread)
            #expect(stats.failedCommits == 0)
            #expect(stats.commits * 4 < stats.operations, "\(stats.commits) commits for \(stats.operations) operations")
            print("group commit: \(stats.operations) operations in \(stats.commits) commits, \(stats.operationsPerCommit) per commit, largest batch \(stats.largestBatch)")
        }
    }

    @Test("Async writes return their values once committed")
    func asyncWrites() async throws {
        try await withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            let sums = try await withThrowingTaskGroup(of: UInt32.self) { group in
                for index in 0..<100 as Range<UInt32> {
                    group.addTask {
                        try await store.write { txn in
                            try txn.put([1], forKey: index, in: table)
                            return index
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(sums == (0..<100).reduce(0, +))
            #expect(try store.read { txn throws in try txn.count(of: table) } == 100)
        }
    }

    @Test("In one batch, an operation that writes and then fails is rolled back alone; the batch is one commit")
    func failureInsideOneBatch() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            // The first operation holds the writer until the others are queued behind it, so
            // that they form one batch.
            let gate = WriterGate()
            let done = DispatchSemaphore(value: 0)
            let results = Mutex<[Int: Result<Int, any Error>]>([:])
            store.writer.submit({ txn in
                // Operations may run again (the batch is applied again after a failure): the
                // gate holds the writer on the first run only.
                gate.hold()
                try txn.put([0], forKey: 0, in: table)
                return 0
            }, completion: { result in results.withLock { $0[0] = result }; done.signal() })
            let commitsBefore = store.writer.statistics.commits
            for index in 1...5 {
                store.writer.submit({ txn in
                    try txn.put([UInt8(index)], forKey: UInt32(index), in: table)
                    // Writes over what the operation before it wrote, then fails.
                    if index == 3 {
                        try txn.put([99], forKey: 2, in: table)
                        throw Refused(index: index)
                    }
                    return index
                }, completion: { result in results.withLock { $0[index] = result }; done.signal() })
            }
            gate.release()
            for _ in 0...5 { done.wait() }
            let all = results.withLock { $0 }
            for index in 0...5 {
                switch all[index] {
                case .success(let value)?: #expect(index != 3 && value == index)
                case .failure(let error)?: #expect(index == 3 && (error as? Refused) == Refused(index: 3))
                case nil: Issue.record("operation \(index) was not completed")
                }
            }
            try store.read { txn throws in
                for index in 0...5 {
                    #expect(try txn.get(UInt32(index), from: table) == (index == 3 ? nil : [UInt8(index)]))
                }
            }
            // The five queued operations were one batch (with the first one, or after it).
            #expect(store.writer.statistics.commits - commitsBefore <= 2)
            #expect(store.writer.statistics.failedOperations == 1)
            #expect(store.writer.statistics.reappliedBatches == 1)
        }
    }

    @Test("A batch of one operation that fails leaves no trace and commits nothing")
    func singleFailure() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            #expect(throws: Refused.self) {
                try store.writeAndWait { txn in
                    try txn.put([1], forKey: 1, in: table)
                    throw Refused(index: 1)
                }
            }
            #expect(try store.read { txn throws in try txn.get(UInt32(1), from: table) } == nil)
            #expect(store.writer.statistics.failedOperations == 1)
            #expect(store.writer.statistics.failedCommits == 0)
            #expect(store.writer.statistics.reappliedBatches == 0)
        }
    }

    @Test("A closed writer refuses new writes with a clear error")
    func closedWriter() throws {
        try withTemporaryDirectory { path in
            let store = try Store(directory: path, schema: testSchema)
            store.close()
            let error = #expect(throws: StorageError.self) {
                try store.writeAndWait { _ in 1 }
            }
            #expect(error?.code == .closed)
        }
    }

    @Test("Writes through the writer grow a tiny map instead of failing")
    func mapGrowthThroughWriter() throws {
        try withStore(configure: { $0.mapSize = 128 << 10 }) { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            let value = [UInt8](repeating: 7, count: 2048)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for item in 0..<500 {
                    _ = try? store.writeAndWait { txn in
                        try txn.put(value, forKey: UInt32(thread * 1000 + item), in: table)
                    }
                }
            }
            #expect(try store.read { txn throws in try txn.count(of: table) } == 2000)
            #expect(store.environment.growthCount > 0)
            #expect(store.writer.statistics.failedOperations == 0)
        }
    }

    @Test("Readers on other threads see consistent snapshots while the writer commits")
    func consistentSnapshots() throws {
        try withStore { store, _ in
            let table: Table<String, [UInt8]> = try store.table("counters")
            @Sendable func encode(_ value: Int64) -> [UInt8] { value.orderedKey.bytes }
            @Sendable func decode(_ bytes: [UInt8]) throws -> Int64 { try Int64(decodingKey: bytes) }
            try store.writeAndWait { txn in
                try txn.put(encode(1000), forKey: "a", in: table)
                try txn.put(encode(0), forKey: "b", in: table)
            }
            let stop = Mutex(false)
            let violations = Mutex(0)
            let reads = Mutex(0)
            let group = DispatchGroup()
            let started = DispatchSemaphore(value: 0)
            for _ in 0..<3 {
                // Threads of their own: Dispatch's global queue shares its few threads with
                // Swift's cooperative pool, which other tests may hold meanwhile.
                group.enter()
                Thread {
                    defer { group.leave() }
                    started.signal()
                    while !stop.withLock({ $0 }) {
                        let total = try? store.read { txn throws -> Int64 in
                            let a = try decode(txn.get("a", from: table)!)
                            let b = try decode(txn.get("b", from: table)!)
                            return a + b
                        }
                        if total != 1000 { violations.withLock { $0 += 1 } }
                        reads.withLock { $0 += 1 }
                    }
                }.start()
            }
            // Write once every reader runs (a gate, not a guess at the scheduler), until they
            // have overlapped many commits (bounded: they share the machine with other tests).
            for _ in 0..<3 { #expect(started.wait(timeout: .now() + 60) == .success) }
            var step = 0
            while step < 300 || (reads.withLock { $0 } < 100 && step < 20_000) {
                defer { step += 1 }
                try store.writeAndWait { [step] txn in
                    let a = try decode(txn.get("a", from: table)!)
                    let b = try decode(txn.get("b", from: table)!)
                    let amount = Int64(step % 13) - 6
                    try txn.put(encode(a - amount), forKey: "a", in: table)
                    try txn.put(encode(b + amount), forKey: "b", in: table)
                }
            }
            stop.withLock { $0 = true }
            group.wait()
            #expect(violations.withLock { $0 } == 0)
            #expect(reads.withLock { $0 } > 0)
        }
    }

    @Test("A caller that may commit finds the writer idle and commits its own write before submit returns")
    func commitOnCaller() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            let caller = pthread_self()
            let completedOnCaller = Mutex<Bool?>(nil)
            store.writer.submit({ txn in try txn.put([1], forKey: 1, in: table) }, mayCommitOnCaller: true) { result in
                #expect((try? result.get()) != nil)
                completedOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            }
            // Already durable and answered, on this thread.
            #expect(completedOnCaller.withLock { $0 } == true)
            #expect(try store.read { txn throws in try txn.get(UInt32(1), from: table) } == [1])

            // Not allowed to, the caller leaves the commit to the writer's queue.
            let done = DispatchSemaphore(value: 0)
            completedOnCaller.withLock { $0 = nil }
            store.writer.submit({ txn in try txn.put([2], forKey: 2, in: table) }) { _ in
                completedOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
                done.signal()
            }
            done.wait()
            #expect(completedOnCaller.withLock { $0 } == false)
        }
    }

    @Test("Writes submitted while a caller commits go to the writer's queue, and close waits for both")
    func handOnFromCaller() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            let gate = WriterGate()
            let callerThread = Mutex<pthread_t?>(nil)
            let completedOn = Mutex<[UInt32: pthread_t]>([:])
            let callerDone = DispatchSemaphore(value: 0)
            DispatchQueue(label: "caller").async {
                callerThread.withLock { $0 = pthread_self() }
                store.writer.submit({ txn in
                    try txn.put([1], forKey: 1, in: table)
                    gate.hold()
                }, mayCommitOnCaller: true) { _ in completedOn.withLock { $0[1] = pthread_self() } }
                callerDone.signal()
            }
            gate.waitUntilHeld()
            // The caller is committing: these wait, then go to the writer's queue.
            for key: UInt32 in 2...5 {
                store.writer.submit({ txn in try txn.put([UInt8(key)], forKey: key, in: table) }, mayCommitOnCaller: true) { _ in
                    completedOn.withLock { $0[key] = pthread_self() }
                }
            }
            gate.release()
            // Closing waits for the caller's commit and for the writer's queue's.
            store.writer.close()
            #expect(completedOn.withLock { $0.count } == 5)
            callerDone.wait()
            let caller = try #require(callerThread.withLock { $0 })
            let seen = completedOn.withLock { $0 }
            #expect(seen[1].map { pthread_equal($0, caller) != 0 } == true)
            for key: UInt32 in 2...5 { #expect(seen[key].map { pthread_equal($0, caller) != 0 } == false) }
            try store.read { txn throws in
                for key: UInt32 in 1...5 { #expect(try txn.get(key, from: table) == [UInt8(key)]) }
            }
            #expect(store.writer.statistics.commits == 2)
        }
    }

    @Test("After a batch of several writes the writer's queue commits, so others can join; after a lone one the caller does")
    func callerCommitsOnlyLoneWrites() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            // A batch of four: the writer's queue holds the first write while three wait.
            let gate = WriterGate()
            let done = DispatchSemaphore(value: 0)
            store.writer.submit({ txn in
                try txn.put([0], forKey: 0, in: table)
                gate.hold()
            }) { _ in done.signal() }
            gate.waitUntilHeld()
            for key: UInt32 in 1...4 {
                store.writer.submit({ txn in try txn.put([UInt8(key)], forKey: key, in: table) }) { _ in done.signal() }
            }
            gate.release()
            for _ in 0...4 { done.wait() }
            waitUntilIdle(store.writer)
            #expect(store.writer.statistics.largestBatch == 4)

            let caller = pthread_self()
            func committedOnCaller(_ key: UInt32) -> Bool {
                let onCaller = Mutex<Bool?>(nil)
                let committed = DispatchSemaphore(value: 0)
                store.writer.submit({ txn in try txn.put([UInt8(key)], forKey: key, in: table) }, mayCommitOnCaller: true) { _ in
                    onCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
                    committed.signal()
                }
                committed.wait()
                // The committing thread marks the writer idle just after it answers.
                waitUntilIdle(store.writer)
                return onCaller.withLock { $0 } ?? false
            }
            // The last batch carried four: this one goes to the queue (a batch of one)...
            #expect(!committedOnCaller(10))
            // ... after which the writes come one at a time, and each caller commits its own.
            #expect(committedOnCaller(11))
            #expect(committedOnCaller(12))
            #expect(store.writer.statistics.callerCommits == 2)
        }
    }

    @Test("A store whose commits wait for the next sync never commits on a caller's thread")
    func deferredSyncCommitsOnQueue() throws {
        try withStore(configure: { $0.flags.insert(.noMetaSync) }) { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            let caller = pthread_self()
            let completedOnCaller = Mutex<Bool?>(nil)
            let done = DispatchSemaphore(value: 0)
            store.writer.submit({ txn in try txn.put([1], forKey: 1, in: table) }, mayCommitOnCaller: true) { _ in
                completedOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
                done.signal()
            }
            done.wait()
            #expect(completedOnCaller.withLock { $0 } == false)
        }
    }
}

/// Waits (10 s at most) until `writer` has marked itself idle: a completion runs just before the
/// committing thread looks for more work.
/// Holds the writer inside an operation while a test queues others behind it: the operation
/// calls ``hold()``, the test waits for that, submits, then releases. Only the first ``hold()``
/// waits, since an operation may run again (its batch is applied a second time after a failure).
private final class WriterGate: Sendable {
    private let inside = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let firstHold = Atomic<Bool>(true)

    /// Called by the operation: says it is inside, then waits for ``release()`` (first call only).
    func hold() {
        guard firstHold.exchange(false, ordering: .relaxed) else { return }
        inside.signal()
        released.wait()
    }

    /// Waits until the operation holds the writer.
    func waitUntilHeld() { inside.wait() }

    /// Lets the operation go on.
    func release() { released.signal() }
}

private func waitUntilIdle(_ writer: GroupCommitWriter) {
    let deadline = Date().addingTimeInterval(10)
    while !writer.isIdle && Date() < deadline { usleep(1_000) }
}
