import Foundation
import LMDB
import Synchronization
import Testing
import TestSupport

/// Opens an environment in a fresh directory, runs `body`, closes it.
func withEnvironment<R>(
    _ configure: (inout Environment.Configuration) -> Void = { _ in },
    _ body: (Environment, String) throws -> R
) throws -> R {
    try withTemporaryDirectory { path in
        var configuration = Environment.Configuration()
        configure(&configuration)
        let environment = try Environment(path: path, configuration: configuration)
        defer { environment.close() }
        return try body(environment, path)
    }
}

@Suite("Environment and transactions")
struct EnvironmentTests {
    @Test("A committed write is read back; an aborted one leaves nothing")
    func commitAndAbort() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            try env.write { txn throws in try txn.put([1, 2, 3], forKey: [0x61], in: db) }
            struct Failure: Error {}
            #expect(throws: Failure.self) {
                try env.write { txn throws in
                    try txn.put([9], forKey: [0x62], in: db)
                    throw Failure()
                }
            }
            try env.read { txn throws in
                #expect(try txn.value(in: db, forKey: [0x61]) == [1, 2, 3])
                #expect(try txn.value(in: db, forKey: [0x62]) == nil)
            }
        }
    }

    @Test("A nested transaction that throws is undone without undoing its parent")
    func nestedAbort() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            struct Failure: Error {}
            try env.write { txn throws in
                try txn.put([1], forKey: [1], in: db)
                do {
                    try txn.withNestedTransaction { child throws in
                        try child.put([2], forKey: [2], in: db)
                        try child.delete([1], in: db)
                        throw Failure()
                    }
                } catch is Failure {}
                try txn.withNestedTransaction { child throws in try child.put([3], forKey: [3], in: db) }
            }
            try env.read { txn throws in
                #expect(try txn.value(in: db, forKey: [1]) == [1])
                #expect(try txn.value(in: db, forKey: [2]) == nil)
                #expect(try txn.value(in: db, forKey: [3]) == [3])
            }
        }
    }

    @Test("noOverwrite refuses an existing key and delete reports absence")
    func insertAndDelete() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            try env.write { txn throws in
                #expect(try txn.put([1], forKey: [7], in: db, flags: .noOverwrite))
                #expect(try !txn.put([2], forKey: [7], in: db, flags: .noOverwrite))
                #expect(try txn.delete([7], in: db))
                #expect(try !txn.delete([7], in: db))
            }
        }
    }

    @Test("Keys that liblmdb cannot store are refused with a clear error", arguments: [0, 512, 4096])
    func badKeys(size: Int) throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            let error = #expect(throws: LMDBError.self) {
                try env.write { txn throws in try txn.put([1], forKey: [UInt8](repeating: 1, count: size), in: db) }
            }
            #expect(error?.code == .badValueSize)
            #expect(error?.message.contains(size == 0 ? "empty" : "\(size) bytes") == true)
        }
    }

    @Test("A cursor walks keys in byte order both ways and seeks")
    func cursorWalk() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "things")
            try env.write { txn throws in
                for key: UInt8 in [5, 1, 9, 3] { try txn.put([key], forKey: [key], in: db) }
            }
            try env.read { txn throws in
                try txn.withCursor(on: db) { cursor throws in
                    var forward: [UInt8] = []
                    var entry = try cursor.first()
                    while let current = entry {
                        forward.append(current.key[0])
                        entry = try cursor.next()
                    }
                    #expect(forward == [1, 3, 5, 9])
                    #expect(try cursor.seek(atLeast: [4])?.key.first == 5)
                    #expect(try cursor.previous()?.key.first == 3)
                    #expect(try cursor.seek(exactly: [4]) == nil)
                    #expect(try cursor.seek(atLeast: [10]) == nil)
                    #expect(try cursor.last()?.key.first == 9)
                }
            }
        }
    }

    @Test("A file that is not an LMDB environment is refused, and left as it was")
    func notAnEnvironment() throws {
        try withTemporaryDirectory { path in
            let garbage = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = path + "/data.mdb"
            try garbage.write(to: URL(fileURLWithPath: file))
            let error = #expect(throws: LMDBError.self) { _ = try Environment(path: path) }
            #expect(error?.code == .invalid)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == garbage)
        }
    }

    @Test("A closed environment refuses transactions instead of crashing")
    func closedEnvironment() throws {
        try withTemporaryDirectory { path in
            let env = try Environment(path: path)
            env.close()
            env.close()
            let error = #expect(throws: LMDBError.self) { try env.read { _ in () } }
            #expect(error?.code == .closed)
        }
    }

    @Test("The map grows by itself when a write fills it")
    func mapGrowth() throws {
        try withEnvironment({ $0.mapSize = 256 << 10 }) { env, _ in
            let db = try env.openDatabase(named: "things")
            let value = [UInt8](repeating: 0xAB, count: 1000)
            for batch in 0..<40 {
                try env.write { txn throws in
                    for item in 0..<100 {
                        try txn.put(value, forKey: Array("\(batch)-\(item)".utf8), in: db)
                    }
                }
            }
            #expect(env.growthCount > 0)
            #expect(env.mapSize > 256 << 10)
            try env.read { txn throws in #expect(try txn.statistics(of: db).entries == 4000) }
        }
    }

    @Test("A read transaction keeps its snapshot while writes commit")
    func snapshotIsolation() throws {
        try withEnvironment { env, _ in
            let db = try env.openDatabase(named: "counter")
            try env.write { txn throws in try txn.put([0], forKey: [1], in: db) }
            try env.read { txn throws in
                let before = try txn.value(in: db, forKey: [1])
                let done = Mutex(false)
                let thread = Thread {
                    _ = try? env.write { txn throws in try txn.put([1], forKey: [1], in: db) }
                    done.withLock { $0 = true }
                }
                thread.start()
                while !done.withLock({ $0 }) { usleep(1000) }
                #expect(try txn.value(in: db, forKey: [1]) == before)
            }
            try env.read { txn throws in #expect(try txn.value(in: db, forKey: [1]) == [1]) }
        }
    }
}
