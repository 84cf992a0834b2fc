package import Storage
package import WorkoutProtocol

extension StorageError: RPCErrorConvertible {
    /// A closed store means the server is stopping (UNAVAILABLE: retry elsewhere or later); a
    /// store without room is RESOURCE_EXHAUSTED (retry once the owner made room); any other
    /// storage failure is INTERNAL, its details kept for the server's log.
    package var rpcError: RPCError {
        switch code {
        case .closed:
            RPCError(code: .unavailable, message: "the server is shutting down")
        case .storageFull:
            RPCError(code: .resourceExhausted, message: "the server's storage is full (\(message)): nothing was saved; reading works, and writing will once the household's admin frees space")
        default:
            RPCError(code: .internal, message: "internal error")
        }
    }
}

extension HouseholdStore {
    /// Whether `error` refused a write for lack of space (RESOURCE_EXHAUSTED on the wire), so
    /// the server can log the condition once per interval instead of once per call.
    package static func isLackOfSpace(_ error: any Error) -> Bool {
        (error as? StorageError)?.code == .storageFull
    }
}
