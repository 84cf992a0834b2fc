import Foundation
import LMDB
import Testing
import TestSupport

/// The per-thread cache of read transactions: reads on many threads, environments opened and
/// closed one after another on the same threads, threads that come and go.
@Suite("Cached read transactions")
struct ReaderCacheTests {
    /// Runs `body` on `count` fresh threads at once and waits for them all.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.start()
        }
        group.wait()
    }

    @Test("Environments opened and closed in turn are read correctly from the same threads")
    func environmentsInTurn() throws {
        let queue = DispatchQueue(label: "reader", attributes: .concurrent)
        for round in 0..<20 {
            try withEnvironment { env, _ in
                let db = try env.openDatabase(named: "round")
                try env.write { txn throws in try txn.put([UInt8(round)], forKey: [1], in: db) }
                // The same pool threads read every round's environment: each must get its own
                // transaction, never one of a closed environment.
                DispatchQueue.concurrentPerform(iterations: 16) { _ in
                    queue.sync {
                        let value = try? env.read { txn throws in try txn.value(in: db, forKey: [1]) }
                        #expect(value == [UInt8(round)])
                    }
                }
            }
        }
    }

    @Test("Threads that exit give their transactions back: reader slots stay few")
    func exitedThreads() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "t")
            try env.write { txn throws in try txn.put([7], forKey: [1], in: db) }
            for _ in 0..<20 {
                onThreads(4) { _ in
                    let value = try? env.read { txn throws in try txn.value(in: db, forKey: [1]) }
                    #expect(value == [7])
                }
            }
            // 80 threads have read, at most a few at a time: their slots were reused.
            #expect(try env.info().readersInUse <= 8)
        }
    }

    @Test("A read nested in another on the same thread sees the same data")
    func nestedRead() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "n")
            try env.write { txn throws in try txn.put([3], forKey: [1], in: db) }
            let outer: [UInt8]? = try env.read { txn throws in
                let inner = try env.read { nested throws in try nested.value(in: db, forKey: [1]) }
                #expect(inner == [3])
                return try txn.value(in: db, forKey: [1])
            }
            #expect(outer == [3])
            // And the cached transaction is still good afterwards.
            #expect(try env.read { txn throws in try txn.value(in: db, forKey: [1]) } == [3])
        }
    }
}
