/// A GOAWAY as both sides read and write it: the last call the server will finish, the
/// reason, and its message (PROTOCOL.md 13).
package struct GoAwayNotice: Sendable, Hashable {
    /// L: calls with ids above it were not processed at all (safe to retry anywhere).
    package var lastCallID: UInt32
    /// OK for a graceful end or an idle timeout; else the connection error's status.
    package var status: StatusCode
    /// Why, for people.
    package var message: String

    /// A notice.
    package init(lastCallID: UInt32, status: StatusCode, message: String) {
        self.lastCallID = lastCallID
        self.status = status
        self.message = message
    }

    /// Reads a received GOAWAY frame (an undecodable body leaves the message empty).
    package init(_ frame: Frame) {
        lastCallID = frame.callID
        status = StatusCode(rawValue: frame.code)
        message = (try? Workout_V1_RpcStatus(serializedBytes: frame.body))?.message ?? ""
    }

    /// Whether the call with `callID` was processed, or may have been (≤ L).
    package func mayHaveProcessed(_ callID: UInt32) -> Bool {
        callID <= lastCallID
    }

    /// The frame that carries the notice.
    package var frame: Frame {
        var details = Workout_V1_RpcStatus()
        details.message = message
        return Frame(type: .goAway, callID: lastCallID, code: status.rawValue, body: (try? details.serializedBytes()) ?? [])
    }
}
