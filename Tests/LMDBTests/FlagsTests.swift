import CLMDB
import LMDB
import Testing

@Suite("Flags map to liblmdb's constants")
struct FlagsTests {
    @Test("Each environment flag is its own liblmdb constant", arguments: [
        (EnvironmentFlags.noSubdirectory, MDB_NOSUBDIR),
        (.readOnly, MDB_RDONLY),
        (.noSync, MDB_NOSYNC),
        (.noMetaSync, MDB_NOMETASYNC),
        (.noReadAhead, MDB_NORDAHEAD),
        (.noMemoryInit, MDB_NOMEMINIT),
        (.writeMap, MDB_WRITEMAP),
        (.noThreadLocalStorage, MDB_NOTLS),
    ])
    func environmentFlag(flag: EnvironmentFlags, constant: Int32) {
        #expect(flag.rawValue == UInt32(constant))
    }

    @Test("Each database flag is its own liblmdb constant", arguments: [
        (DatabaseFlags.create, MDB_CREATE),
        (.reverseKey, MDB_REVERSEKEY),
        (.duplicateSort, MDB_DUPSORT),
        (.integerKey, MDB_INTEGERKEY),
    ])
    func databaseFlag(flag: DatabaseFlags, constant: Int32) {
        #expect(flag.rawValue == UInt32(constant))
    }

    @Test("Each write flag is its own liblmdb constant", arguments: [
        (WriteFlags.noOverwrite, MDB_NOOVERWRITE),
        (.append, MDB_APPEND),
    ])
    func writeFlag(flag: WriteFlags, constant: Int32) {
        #expect(flag.rawValue == UInt32(constant))
    }

    @Test("Error codes carry liblmdb's numbers and messages")
    func errorCodes() {
        let error = LMDBError(returnCode: MDB_MAP_FULL, operation: "mdb_put", context: "weights")
        #expect(error.code == .mapFull)
        #expect(error.code.rawValue == MDB_MAP_FULL)
        #expect(error.message.contains("mdb_put"))
        #expect(error.message.contains("MDB_MAP_FULL"))
        #expect(error.message.contains("weights"))
        #expect(LMDBError.Code(rawValue: 12_345).description == "code(12345)")
    }
}
