/// The client's rule between the TLS handshake and the protocol: nothing of the protocol
/// passes either way until the server's key was checked. What the server sends meanwhile is
/// held (at most ``maxHeld`` bytes), then released to the connection machine once the key is
/// accepted, or dropped with the connection when it is refused; a failure of the connection
/// after the handshake completed still lets the key be checked first, so that a server whose
/// key changed cannot hide it behind a failure (a close, an alert) of its own.
///
/// A pure state machine: ``ClientConnection`` feeds it events on its queue and carries out the
/// actions it returns, and the tests run it without sockets.
///
/// ```
///  handshaking ──handshakeCompleted──▶ checking ──keyAccepted──▶ open
///      │  failed before the handshake's end      │ keyRefused, failed
///      ▼  (failSecuring), cancelled              ▼ (loseConnection)
///    closed ◀────────────────────────────────────┘
/// ```
struct KeyCheckGate {
    /// Where the connection is.
    enum Phase: Equatable {
        /// TLS is shaking hands; no key yet.
        case handshaking
        /// The handshake is complete and the key is being checked.
        case checking
        /// The key was accepted (or there is no TLS): application data flows.
        case open
        /// The connection ended before it opened.
        case closed
    }

    /// What the connection does.
    enum Action: Equatable {
        /// Hand the key the server presented to the waiting key check.
        case checkKey
        /// Give the connection machine what the server sent before its key was checked.
        case release([UInt8])
        /// End the wait for the handshake with this error, and the connection.
        case failSecuring(WorkoutError)
        /// The connection is lost (the key check, if one waits, still has its answer).
        case loseConnection(WorkoutError)
    }

    /// What becomes of plaintext the server sent.
    enum Plaintext: Equatable {
        /// Give it to the connection machine now.
        case deliver
        /// Held until the key is checked.
        case held
        /// More than ``KeyCheckGate/maxHeld`` bytes came before the key was checked: not a
        /// server of this protocol (which sends nothing before the client's preface).
        case tooMuch
    }

    /// The most plaintext held before the key check.
    static let maxHeld = 64 * 1_024

    private(set) var phase: Phase
    private var held: [UInt8] = []

    /// A gate for a TLS connection (closed until the key is checked), or for plain TCP (open).
    init(tls: Bool) {
        phase = tls ? .handshaking : .open
    }

    /// Whether the connection machine's plaintext may go out.
    var allowsApplicationData: Bool { phase == .open }

    /// The TLS handshake is complete: the key is to be checked (once).
    mutating func handshakeCompleted() -> [Action] {
        guard phase == .handshaking else { return [] }
        phase = .checking
        return [.checkKey]
    }

    /// The server sent `plaintext`.
    mutating func received<Bytes: Collection<UInt8>>(_ plaintext: Bytes) -> Plaintext {
        switch phase {
        case .open: return .deliver
        case .closed: return .held  // dropped with the connection
        case .handshaking, .checking:
            guard held.count + plaintext.count <= Self.maxHeld else { return .tooMuch }
            held.append(contentsOf: plaintext)
            return .held
        }
    }

    /// The connection failed with `error`; `handshakeComplete` says whether TLS completed its
    /// handshake first (perhaps in the same read as the failure).
    mutating func failed(_ error: WorkoutError, handshakeComplete: Bool) -> [Action] {
        switch phase {
        case .handshaking where handshakeComplete:
            phase = .closed
            held = []
            return [.checkKey, .loseConnection(error)]
        case .handshaking:
            phase = .closed
            held = []
            return [.failSecuring(error)]
        case .checking:
            phase = .closed
            held = []
            return [.loseConnection(error)]
        case .open:
            return [.loseConnection(error)]
        case .closed:
            return []
        }
    }

    /// The key check accepted the server's key: what it sent meanwhile goes to the machine.
    mutating func keyAccepted() -> [Action] {
        guard phase == .checking else { return [] }
        phase = .open
        let released = held
        held = []
        return released.isEmpty ? [] : [.release(released)]
    }

    /// The key check refused the server's key with `error`: what it sent is dropped.
    mutating func keyRefused(_ error: WorkoutError) -> [Action] {
        guard phase == .checking else { return [] }
        phase = .closed
        held = []
        return [.loseConnection(error)]
    }

    /// The task opening the connection was cancelled during the TLS handshake (once the key is
    /// being checked, the check ends first and the protocol's handshake sees the cancellation).
    mutating func cancelled() -> [Action] {
        guard phase == .handshaking else { return [] }
        phase = .closed
        held = []
        return [.failSecuring(WorkoutError(code: .cancelled, message: "cancelled while connecting"))]
    }
}
