package import Storage
package import WorkoutProtocol

extension StorageError: RPCErrorConvertible {
    /// A closed store means the server is stopping (UNAVAILABLE: retry elsewhere or later); a
    /// store without room, or one that cannot make its data file durable, is RESOURCE_EXHAUSTED
    /// (retry once the owner made room, or checked the disk and restarted); any other
    /// storage failure is INTERNAL, its details kept for the server's log.
    package var rpcError: RPCError {
        switch code {
        case .closed:
            RPCError(code: .unavailable, message: "the server is shutting down")
        case .storageFull:
            RPCError(code: .resourceExhausted, message: "the server's storage is full (\(message)): nothing was saved; reading works, and writing will once the household's admin frees space")
        case .notDurable:
            RPCError(code: .resourceExhausted, message: "the store cannot make its data file durable: nothing was saved; reading works, and the household's admin should check the disk and restart the server")
        default:
            RPCError(code: .internal, message: "internal error")
        }
    }
}

extension HouseholdStore {
    /// Whether `error` refused a write for lack of space, or because the store cannot make its
    /// data file durable (RESOURCE_EXHAUSTED on the wire, either), so the server can log the
    /// condition once per interval instead of once per call.
    package static func isLackOfSpace(_ error: any Error) -> Bool {
        let code = (error as? StorageError)?.code
        return code == .storageFull || code == .notDurable
    }

    /// Whether `error` refused a write because the store cannot make its data file durable.
    package static func isNotDurable(_ error: any Error) -> Bool {
        (error as? StorageError)?.code == .notDurable
    }
}
