package import Foundation
import Synchronization

/// Tells whoever watches a member that the member's data changed (their revision moved), so a
/// Watch stream can read the new changes. Subscribers are callbacks; they run on the thread
/// that committed, after the commit, and must only schedule work.
package final class ChangeNotifier: Sendable {
    private struct State {
        var nextToken = 0
        var subscribers: [UUID: [Int: @Sendable () -> Void]] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// Calls `onChange` after every committed write of `user` until the subscription is cancelled.
    ///
    /// - Returns: a token for ``cancel(_:user:)``.
    package func subscribe(_ user: UUID, onChange: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.nextToken += 1
            state.subscribers[user, default: [:]][state.nextToken] = onChange
            return state.nextToken
        }
    }

    /// Stops a subscription.
    package func cancel(_ token: Int, user: UUID) {
        state.withLock { state in
            state.subscribers[user]?[token] = nil
            if state.subscribers[user]?.isEmpty == true { state.subscribers[user] = nil }
        }
    }

    /// Calls every subscriber of `user`.
    package func notify(_ user: UUID) {
        let callbacks = state.withLock { Array($0.subscribers[user]?.values ?? [:].values) }
        for callback in callbacks { callback() }
    }
}
