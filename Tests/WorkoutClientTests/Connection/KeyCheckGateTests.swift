import Testing
@testable import WorkoutClient

/// The key check after the TLS handshake as a table: each row a sequence of events and what the
/// gate answered. The first rows are the fixes that landed here one by one.
@Suite("The key check's gate between the TLS handshake and the protocol")
struct KeyCheckGateTests {
    enum Event: CustomStringConvertible, Sendable {
        case handshakeCompleted
        case received([UInt8])
        case failed(String, handshakeComplete: Bool)
        case keyAccepted
        case keyRefused(String)
        case cancelled

        var description: String {
            switch self {
            case .handshakeCompleted: "handshake completed"
            case .received(let bytes): "received \(bytes.count) bytes"
            case .failed(let message, let complete): "failed (\(message)), handshake \(complete ? "complete" : "not complete")"
            case .keyAccepted: "key accepted"
            case .keyRefused(let message): "key refused (\(message))"
            case .cancelled: "cancelled"
            }
        }
    }

    /// What the connection saw: the gate's actions, and where plaintext went.
    enum Seen: Equatable, Sendable {
        case action(KeyCheckGate.Action)
        case plaintext(KeyCheckGate.Plaintext)
    }

    struct Row: CustomStringConvertible, Sendable {
        var name: String
        var tls = true
        var events: [Event]
        var seen: [Seen]
        var phase: KeyCheckGate.Phase

        var description: String { name }
    }

    static let words: [UInt8] = Array("WKRP refusal".utf8)
    static let lost = WorkoutError.unavailable("the server ended the TLS session")
    static let changed = WorkoutError(code: .failedPrecondition, message: "key changed")

    static let rows: [Row] = [
        // 0d9fbaf: the key is read on the connection's queue when the handshake completes, once.
        Row(
            name: "The handshake's end hands the key to the check once",
            events: [.handshakeCompleted, .handshakeCompleted],
            seen: [.action(.checkKey)], phase: .checking),
        // 504861c: what the server sends before its key is checked is held, then released.
        Row(
            name: "Words sent with the handshake's last message wait for the key check, then reach the machine",
            events: [.received(words), .handshakeCompleted, .keyAccepted],
            seen: [.plaintext(.held), .action(.checkKey), .action(.release(words))], phase: .open),
        // 504861c: a refusal sent with the handshake cannot replace the alarm of a changed key.
        Row(
            name: "Words of a server whose key is refused are dropped, never released",
            events: [.received(words), .handshakeCompleted, .keyRefused("key changed")],
            seen: [.plaintext(.held), .action(.checkKey), .action(.loseConnection(changed))], phase: .closed),
        // 504861c: at most 64 KiB are held.
        Row(
            name: "More than 64 KiB before the key check is not a server of this protocol",
            events: [.handshakeCompleted, .received(Array(repeating: 0, count: KeyCheckGate.maxHeld)), .received([0])],
            seen: [.action(.checkKey), .plaintext(.held), .plaintext(.tooMuch)], phase: .checking),
        // 70c3541: a close_notify, an alert or a broken record in the same read as the
        // handshake's end: the key is checked first, so that a changed key is still reported.
        Row(
            name: "A failure in the same read as the handshake's end still has the key checked first",
            events: [.received(words), .failed("the server ended the TLS session", handshakeComplete: true)],
            seen: [.plaintext(.held), .action(.checkKey), .action(.loseConnection(lost))], phase: .closed),
        // b5e2ef9: every failure after the handshake completed (a read or a write) leaves the
        // key check's answer standing: the connection is lost, the securing wait is not failed.
        Row(
            name: "A failure while the key is checked loses the connection and leaves the check's answer standing",
            events: [.handshakeCompleted, .failed("the server ended the TLS session", handshakeComplete: true), .keyAccepted],
            seen: [.action(.checkKey), .action(.loseConnection(lost))], phase: .closed),
        Row(
            name: "A failure before the handshake completes fails the wait for it",
            events: [.failed("the server ended the TLS session", handshakeComplete: false), .handshakeCompleted],
            seen: [.action(.failSecuring(lost))], phase: .closed),
        Row(
            name: "Cancelling during the handshake fails the wait for it at once",
            events: [.cancelled],
            seen: [.action(.failSecuring(WorkoutError(code: .cancelled, message: "cancelled while connecting")))], phase: .closed),
        Row(
            name: "Cancelling while the key is checked leaves the check to finish",
            events: [.handshakeCompleted, .cancelled, .keyAccepted],
            seen: [.action(.checkKey)], phase: .open),
        Row(
            name: "Once the key is accepted, plaintext passes and failures lose the connection",
            events: [.handshakeCompleted, .keyAccepted, .received(words), .failed("the server ended the TLS session", handshakeComplete: true)],
            seen: [.action(.checkKey), .plaintext(.deliver), .action(.loseConnection(lost))], phase: .open),
        Row(
            name: "Plain TCP has no key to check: open from the start",
            tls: false, events: [.received(words), .keyAccepted, .cancelled],
            seen: [.plaintext(.deliver)], phase: .open),
    ]

    @Test("Each sequence of events gets its actions", arguments: rows)
    func table(row: Row) {
        var gate = KeyCheckGate(tls: row.tls)
        var seen: [Seen] = []
        for event in row.events {
            switch event {
            case .handshakeCompleted: seen += gate.handshakeCompleted().map(Seen.action)
            case .received(let bytes): seen.append(.plaintext(gate.received(bytes)))
            case .failed(let message, let complete):
                seen += gate.failed(.unavailable(message), handshakeComplete: complete).map(Seen.action)
            case .keyAccepted: seen += gate.keyAccepted().map(Seen.action)
            case .keyRefused(let message):
                seen += gate.keyRefused(WorkoutError(code: .failedPrecondition, message: message)).map(Seen.action)
            case .cancelled: seen += gate.cancelled().map(Seen.action)
            }
        }
        #expect(seen == row.seen)
        #expect(gate.phase == row.phase)
        #expect(gate.allowsApplicationData == (row.phase == .open))
    }
}
