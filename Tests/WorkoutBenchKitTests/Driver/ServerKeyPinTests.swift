import Testing
import WorkoutBenchKit
import WorkoutProtocol

/// The load generator's pin of the server key: the first handshake's key is kept, a later one
/// must be the same.
@Suite("Server key pin")
struct ServerKeyPinTests {
    private let key = [UInt8](repeating: 0x30, count: 91)
    private let otherKey = [UInt8](repeating: 0x31, count: 91)

    @Test("The first key is pinned and the same key passes again")
    func pinsFirstKey() throws {
        let pin = ServerKeyPin()
        #expect(pin.pinned == nil)
        try pin.check(key)
        #expect(pin.pinned == KeyFingerprint(publicKey: key))
        try pin.check(key)
        #expect(pin.pinned == KeyFingerprint(publicKey: key))
    }

    @Test("Another key after the first fails the run, naming both fingerprints")
    func refusesChangedKey() throws {
        let pin = ServerKeyPin()
        try pin.check(key)
        let failure = #expect(throws: BenchFailure.self) { try pin.check(otherKey) }
        #expect(failure?.description.contains("key changed") == true)
        #expect(failure?.description.contains(KeyFingerprint(publicKey: otherKey).description) == true)
        #expect(pin.pinned == KeyFingerprint(publicKey: key))
    }

    @Test("A handshake without a server key fails the run")
    func refusesMissingKey() {
        let pin = ServerKeyPin()
        #expect(throws: BenchFailure.self) { try pin.check(nil) }
        #expect(pin.pinned == nil)
    }
}
