import Testing
@testable import WorkoutProtocol

@Suite("Call ids")
struct CallIDSequenceTests {
    @Test("A server accepts strictly increasing call ids and refuses the rest")
    func increasing() throws {
        var sequence = CallIDSequence()
        try sequence.accept(1)
        try sequence.accept(5)
        #expect(throws: ProtocolError.self) { try sequence.accept(5) }
        #expect(throws: ProtocolError.self) { try sequence.accept(2) }
        #expect(sequence.last == 5)
    }

    @Test("A client takes ids from 1 and stops at the last one")
    func clientIDs() {
        var sequence = CallIDSequence()
        #expect(sequence.next() == 1)
        #expect(sequence.next() == 2)
        var exhausted = CallIDSequence()
        try? exhausted.accept(UInt32.max)
        #expect(exhausted.next() == nil)
    }
}
