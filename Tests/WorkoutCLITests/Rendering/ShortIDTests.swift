import Foundation
import Testing
@testable import workout

/// Short record IDs in tables (history, today).
@Suite("Short IDs")
struct ShortIDTests {
    @Test("Short IDs: 12 hex digits, more where two IDs share them, so each is a unique prefix")
    func shortIDs() {
        let a = UUID(uuidString: "0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b")!
        let b = UUID(uuidString: "0190a5b2-7c3e-7d5f-9a1b-2c3d4e5f6a7b")!
        let c = UUID(uuidString: "ffffffff-0000-7000-8000-000000000000")!
        let ids = ShortID.prefixes([a, b, c, a])
        #expect(ids == [a: "0190a5b27c3e7d4", b: "0190a5b27c3e7d5", c: "ffffffff0000"])
        #expect(ShortID.prefixes([a]) == [a: "0190a5b27c3e"])
        #expect(ShortID.prefixes([]).isEmpty)
    }
}
