package import Storage
package import WorkoutProtocol

extension StorageError: RPCErrorConvertible {
    /// A closed store means the server is stopping (UNAVAILABLE: retry elsewhere or later);
    /// any other storage failure is INTERNAL, its details kept for the server's log.
    package var rpcError: RPCError {
        code == .closed
            ? RPCError(code: .unavailable, message: "the server is shutting down")
            : RPCError(code: .internal, message: "internal error")
    }
}
