import CMemory
import Dispatch
import Logging
import WorkoutServer

/// When to give the C allocator's free memory back to the system: after a burst of
/// connections has drained (issue 31: six rounds of 1,000 silent TLS connections left ~49 MB
/// of freed memory in glibc's arenas, never returned because it is not at the top of a heap).
///
/// A trim is due when the open connections fell by at least ``minimumDrop`` from their peak
/// since the last trim and to at most half of it, and the last trim is ``minimumInterval``
/// ago: a burst's end, not the ordinary coming and going of a household's few devices.
struct BurstTrimRule: Sendable {
    /// The fall from the peak that counts as a burst's end.
    var minimumDrop = 200
    /// The least time between two trims.
    var minimumInterval: Duration = .seconds(10)

    private var peak = 0
    private var lastTrim: ContinuousClock.Instant?

    /// Looks at the open connections at `now`.
    ///
    /// - Returns: Whether to trim now (then the peak starts again from `openConnections`).
    mutating func observe(openConnections: Int, now: ContinuousClock.Instant) -> Bool {
        peak = max(peak, openConnections)
        guard peak - openConnections >= minimumDrop, openConnections <= peak / 2,
            lastTrim.map({ now - $0 >= minimumInterval }) ?? true
        else { return false }
        peak = openConnections
        lastTrim = now
        return true
    }
}

/// Watches the server's open connections every ``period`` (off the connections' hot path) and
/// trims the C allocator's arenas when ``BurstTrimRule`` says a burst has drained.
final class MemoryRelief: @unchecked Sendable {
    // Safe because: `rule` is touched only on `queue`, by the timer's handler; `timer` is set
    // in `init` and only cancelled afterwards (Dispatch sources may be cancelled from any thread).
    /// How often the open connections are looked at.
    static let period: DispatchTimeInterval = .seconds(2)

    private let queue = DispatchQueue(label: "workoutd.memory-relief", qos: .utility)
    private let timer: any DispatchSourceTimer
    private var rule = BurstTrimRule()

    /// Starts watching `server`; `nil` when `WORKOUTD_MEMORY_TRIM` is `off` (how
    /// `Benchmarks/memory-after-bursts.sh` measures the curve without it).
    init?(server: WorkoutServer, environment: [String: String], logger: Logger) {
        guard environment["WORKOUTD_MEMORY_TRIM"] != "off" else { return nil }
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in
            let open = server.statistics.openConnections
            guard rule.observe(openConnections: open, now: .now) else { return }
            let released = workout_memory_trim() == 1
            logger.debug("a burst of connections drained (\(open) open): trimmed the allocator's arenas", metadata: ["released": "\(released)"])
        }
        timer.schedule(deadline: .now() + Self.period, repeating: Self.period, leeway: .milliseconds(500))
        timer.resume()
    }

    /// Stops watching.
    func stop() {
        timer.cancel()
    }
}
