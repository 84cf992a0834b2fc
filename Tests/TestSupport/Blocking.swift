import Foundation

/// Runs blocking client code on a thread of its own, so that waiting on sockets never holds
/// one of the few threads of Swift's cooperative pool (the server's write tasks need them).
package func blocking<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 4 << 20
        thread.start()
    }
}
