import Synchronization
package import WorkoutRules

/// Slows down and then refuses repeated failed logins, per source address, per account and
/// source, and per account alone, without ever locking a member out for long.
///
/// Each key allows a number of free failures inside a window; past that, every further failure
/// doubles a wait (1 s, 2 s, 4 s, …) capped at a maximum, during which logins for that key are
/// refused with RESOURCE_EXHAUSTED and a retry-after. The per-account key has a higher allowance
/// and a shorter cap than the per-source ones, so an attacker spraying one account from many
/// addresses slows it down for minutes at most, while the member logging in from their own
/// device (another source) is held up only by that account-wide key. A success clears the
/// account-and-source and account keys. State lives in memory (bounded; the oldest entries go
/// first), so a restart forgives everyone.
package final class LoginThrottle: Sendable {
    /// How many failures each kind of key tolerates, and how long it may be blocked.
    package struct Policy: Sendable {
        /// Failures allowed per source address before waits begin.
        package var freeFailuresPerSource = 10
        /// Failures allowed per (account, source) before waits begin.
        package var freeFailuresPerAccountAndSource = 5
        /// Failures allowed per account (from any source) before waits begin.
        package var freeFailuresPerAccount = 20
        /// Failures older than this are forgotten.
        package var windowMilliseconds: Int64 = 15 * 60 * 1000
        /// The longest wait for a source or an (account, source) pair.
        package var maxBlockMilliseconds: Int64 = 15 * 60 * 1000
        /// The longest wait for an account as a whole.
        package var maxAccountBlockMilliseconds: Int64 = 5 * 60 * 1000
        /// The most keys remembered.
        package var capacity = 10_000

        package init() {}
    }

    private struct Entry {
        var failures: Int
        var lastFailure: Int64
        var blockedUntil: Int64
    }

    private let policy: Policy
    private let entries = Mutex<[String: Entry]>([:])

    /// A throttle with `policy`.
    package init(policy: Policy = Policy()) { self.policy = policy }

    private func keys(account: String, source: String) -> [(key: String, free: Int, cap: Int64)] {
        [
            ("s:" + source, policy.freeFailuresPerSource, policy.maxBlockMilliseconds),
            ("as:" + account + "|" + source, policy.freeFailuresPerAccountAndSource, policy.maxBlockMilliseconds),
            ("a:" + account, policy.freeFailuresPerAccount, policy.maxAccountBlockMilliseconds),
        ]
    }

    /// Refuses the attempt while any of its keys is blocked.
    ///
    /// - Throws: ``DomainError`` `resourceExhausted` with the milliseconds to wait.
    package func check(account: String, source: String, now: Int64) throws(DomainError) {
        let wait = entries.withLock { entries in
            keys(account: account, source: source).compactMap { entries[$0.key] }
                .map { $0.blockedUntil - now }.max() ?? 0
        }
        if wait > 0 {
            throw DomainError(
                .resourceExhausted, "too many failed logins; try again in \((wait + 999) / 1000) s",
                retryAfterMilliseconds: UInt32(clamping: wait))
        }
    }

    /// Counts a failed attempt.
    package func recordFailure(account: String, source: String, now: Int64) {
        entries.withLock { entries in
            for (key, free, cap) in keys(account: account, source: source) {
                var entry = entries[key] ?? Entry(failures: 0, lastFailure: now, blockedUntil: 0)
                if now - entry.lastFailure > policy.windowMilliseconds { entry.failures = 0 }
                entry.failures += 1
                entry.lastFailure = now
                if entry.failures > free {
                    let doublings = min(entry.failures - free - 1, 30)
                    entry.blockedUntil = now + min(Int64(1000) << doublings, cap)
                }
                entries[key] = entry
            }
            if entries.count > policy.capacity {
                let oldest = entries.sorted { $0.value.lastFailure < $1.value.lastFailure }
                    .prefix(entries.count - policy.capacity).map(\.key)
                for key in oldest { entries[key] = nil }
            }
        }
    }

    /// Forgets the account's failures after a successful login.
    package func recordSuccess(account: String, source: String) {
        entries.withLock { entries in
            entries["as:" + account + "|" + source] = nil
            entries["a:" + account] = nil
        }
    }
}
