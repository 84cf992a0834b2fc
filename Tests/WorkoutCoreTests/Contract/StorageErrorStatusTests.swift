import LMDB
import Storage
import Testing
import WorkoutCore
import WorkoutProtocol

/// How storage failures reach the wire: the statuses PROTOCOL.md promises for them.
@Suite("Storage failures as wire statuses")
struct StorageErrorStatusTests {
    @Test("A write refused because the data file cannot be made durable is RESOURCE_EXHAUSTED, in the family's words")
    func notDurable() {
        let refused = LMDBError(code: .writeAheadLogFull, operation: "mdb_txn_begin", message: "the log is at its ceiling")
        let error = StorageError(lackOfSpace: refused) { nil }
        #expect(error?.rpcError.code == .resourceExhausted)
        #expect(error?.rpcError.message.hasPrefix("the store cannot make its data file durable") == true)
        #expect(error.map { HouseholdStore.isLackOfSpace($0) && HouseholdStore.isNotDurable($0) } == true)
    }

    @Test("A full disk stays RESOURCE_EXHAUSTED and is not taken for a durability failure")
    func full() {
        let error = StorageError(.storageFull, "the disk holding the store is full")
        #expect(error.rpcError.code == .resourceExhausted)
        #expect(HouseholdStore.isLackOfSpace(error) && !HouseholdStore.isNotDurable(error))
    }
}
