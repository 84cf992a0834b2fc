/// An error that knows how it reaches the wire: each layer's error type conforms, so the
/// server maps any error a handler throws to a status in one place without knowing the
/// layers (the shape of grpc-swift-2's `RPCErrorConvertible`). An error that does not
/// conform is answered INTERNAL "internal error", its details kept for the log.
package protocol RPCErrorConvertible: Error {
    /// The status, message, field and retry hint the peer is told.
    var rpcError: RPCError { get }
}
