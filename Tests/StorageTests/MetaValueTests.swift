import Foundation
import Storage
import Testing
import TestSupport

@Suite("Application values in the meta table")
struct MetaValueTests {
    @Test("A meta value is made once and read back unchanged after the store is opened again")
    func madeOnce() throws {
        try withTemporaryDirectory { path in
            let schema = Schema(version: 1, tables: ["notes"], migrations: [])
            let first = try Store(directory: path, schema: schema)
            let made = try first.metaValue(forKey: "secret") { [1, 2, 3] }
            #expect(made == [1, 2, 3])
            #expect(try first.metaValue(forKey: "secret") { [9] } == [1, 2, 3])
            first.close()
            let second = try Store(directory: path, schema: schema)
            defer { second.close() }
            #expect(try second.metaValue(forKey: "secret") { [9] } == [1, 2, 3])
            #expect(try second.storedSchemaVersion() == 1)
        }
    }
}
