import Dispatch
import Foundation
import Logging
import Synchronization
import WorkoutCore

/// Tells the log when the store runs out of space, or cannot make its data file durable (the
/// write-ahead log at its ceiling), once per interval rather than once per refused write, and
/// when writes work again.
///
/// A refused write calls ``writeRefused(_:)``. The first one logs an error at once and starts
/// a watch that looks at the writer every few seconds: while writes keep failing, one error
/// line per ``interval`` says how many were refused; when a commit has succeeded again, one
/// line says so and the watch stops.
final class StorageAlarm: Sendable {
    /// The least time between two "still full" lines.
    let interval: Duration
    private let household: HouseholdStore
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var watching = false
        var lastLogged: ContinuousClock.Instant?
        var refusedSinceLog = 0
        var refusedInAll = 0
    }

    init(household: HouseholdStore, logger: Logger, interval: Duration = .seconds(60)) {
        self.household = household
        self.logger = logger
        self.interval = interval
    }

    /// A write was refused for lack of space, or because the store cannot make its data file
    /// durable: `error` is what it was refused with.
    func writeRefused(_ error: any Error) {
        let notDurable = HouseholdStore.isNotDurable(error)
        let now = ContinuousClock.now
        let (log, startWatch, refused) = state.withLock { state -> (Bool, Bool, Int) in
            state.refusedSinceLog += 1
            state.refusedInAll += 1
            let startWatch = !state.watching
            state.watching = true
            guard state.lastLogged.map({ now - $0 >= interval }) ?? true else { return (false, startWatch, 0) }
            state.lastLogged = now
            defer { state.refusedSinceLog = 0 }
            return (true, startWatch, state.refusedSinceLog)
        }
        if log && notDurable {
            let uncovered = household.storeUsage().writeAheadLog.map { " (its write-ahead log holds \($0.uncoveredBytes) bytes no checkpoint covers)" } ?? ""
            logger.critical("""
                the store cannot make its data file durable\(uncovered): \(refused) write(s) refused with RESOURCE_EXHAUSTED \
                in the last \(interval) or less; reads and logins keep working, and every acknowledged write is in the \
                log. Check the disk holding the data directory (dmesg), then restart workoutd: opening the store \
                replays the log
                """)
        } else if log {
            let since = household.storeUsage().storageFullSince.map { " since \($0.ISO8601Format())" } ?? ""
            logger.error("""
                the store is out of space\(since): \(refused) write(s) refused with RESOURCE_EXHAUSTED in the last \
                \(interval) or less; reads and logins keep working. Free space on the disk holding the data \
                directory; writes resume by themselves
                """)
        }
        if startWatch { scheduleCheck() }
    }

    private func scheduleCheck() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(5)) { [self] in
            let usage = household.storeUsage()
            guard usage.storageFullSince == nil, usage.writeAheadLog?.refusingWrites != true else {
                scheduleCheck()
                return
            }
            let refused = state.withLock { state -> Int in
                defer { state = State() }
                return state.refusedInAll
            }
            logger.notice("writes succeed again (\(refused) were refused before)")
        }
    }
}
