import Foundation
import LMDB
import Storage
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Which failures of a write are the store's lack of space (RESOURCE_EXHAUSTED on the wire).
@Suite struct StorageErrorSpaceTests {
    /// A failure, the room its file system has left, and whether it is a lack of space.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var returnCode: Int32
        var availableBytes: UInt64?
        var isLackOfSpace: Bool
        var description: String { name }
    }

    static let cases = [
        Case(name: "ENOSPC, whatever the room", returnCode: ENOSPC, availableBytes: 1 << 30, isLackOfSpace: true),
        Case(name: "EDQUOT", returnCode: EDQUOT, availableBytes: nil, isLackOfSpace: true),
        Case(name: "the map at its maximum", returnCode: LMDBError.Code.mapFull.rawValue, availableBytes: nil, isLackOfSpace: true),
        Case(name: "EIO with no room left (a short write)", returnCode: EIO, availableBytes: 0, isLackOfSpace: true),
        Case(name: "EIO with 1 MiB left", returnCode: EIO, availableBytes: 1 << 20, isLackOfSpace: true),
        Case(name: "EIO with 8 MiB left (a failing disk)", returnCode: EIO, availableBytes: 8 << 20, isLackOfSpace: false),
        Case(name: "EIO with 1 GiB left", returnCode: EIO, availableBytes: 1 << 30, isLackOfSpace: false),
        Case(name: "EIO when the room is unknown", returnCode: EIO, availableBytes: nil, isLackOfSpace: false),
        Case(name: "EACCES with no room left", returnCode: EACCES, availableBytes: 0, isLackOfSpace: false),
    ]

    @Test("A commit's failure is a lack of space for ENOSPC, EDQUOT, a full map, and EIO only on a nearly full disk", arguments: cases)
    func lackOfSpace(_ testCase: Case) {
        let error = LMDBError(returnCode: testCase.returnCode, operation: "mdb_txn_commit")
        let mapped = StorageError(lackOfSpace: error) { testCase.availableBytes }
        #expect((mapped?.code == .storageFull) == testCase.isLackOfSpace)
        #expect(mapped == nil || mapped?.code == .storageFull)
    }

    @Test("A write the write-ahead log refused at its ceiling is not durable, whatever the disk's room")
    func notDurable() {
        let error = LMDBError(code: .writeAheadLogFull, operation: "mdb_txn_begin", message: "the store cannot make its data file durable")
        let mapped = StorageError(lackOfSpace: error) { 100 << 30 }
        #expect(mapped?.code == .notDurable)
        #expect(mapped?.description.contains("the store cannot make its data file durable") == true)
    }
}
