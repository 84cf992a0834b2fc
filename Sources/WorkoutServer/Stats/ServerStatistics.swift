import Dispatch
import Histogram
import Synchronization
package import WorkoutProtocol

/// What the server counts: connections, and per method the calls, their statuses and their
/// latency (an HdrHistogram in microseconds). Calls are recorded into one of a fixed number of
/// shards, chosen by connection, so connections on different threads rarely contend for one
/// lock; a snapshot merges the shards.
///
/// The shards are few and fixed rather than one per connection: a method's histogram takes
/// about 140 KiB, and a thousand idle phones that each resumed a session would otherwise
/// hold 140 MiB of them.
package final class ServerStatistics: Sendable {
    /// One method's counters.
    struct MethodCounters {
        var calls: UInt64 = 0
        var statuses: [UInt32: UInt64] = [:]
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)

        mutating func merge(_ other: MethodCounters) {
            calls += other.calls
            for (code, count) in other.statuses { statuses[code, default: 0] += count }
            latency.add(other.latency)
        }
    }

    /// The counters of the connections assigned to it. A connection records only from its
    /// own queue, and a shard is shared by every ``shardCount``-th connection, so its lock is
    /// rarely contended; `Admin.Stats` reads it.
    package final class Shard: Sendable {
        /// An empty shard.
        package init() {}

        fileprivate let methods = Mutex<[UInt32: MethodCounters]>([:])

        /// Counts a finished call.
        package func recordCall(method: UInt32, status: StatusCode, microseconds: UInt64) {
            methods.withLock { methods in
                methods[method, default: MethodCounters()].calls += 1
                methods[method]!.statuses[status.rawValue, default: 0] += 1
                _ = methods[method]!.latency.record(min(microseconds, 60_000_000))
            }
        }
    }

    /// How many shards calls are spread over (a few per core of a small server).
    package static let shardCount = 16
    private let shards = (0..<ServerStatistics.shardCount).map { _ in Shard() }

    /// The shard that connection `id` records its calls into.
    package func shard(forConnection id: UInt64) -> Shard {
        shards[Int(id % UInt64(Self.shardCount))]
    }

    private struct State {
        var acceptedConnections: UInt64 = 0
        var rejectedConnections: UInt64 = 0
        var shedConnections: UInt64 = 0
        var openConnections = 0
        var authenticatedConnections = 0
    }

    private let state = Mutex(State())
    private let heldFrameBytes = Atomic<Int>(0)
    /// When the server started (uptime nanoseconds).
    package let startedAt = DispatchTime.now().uptimeNanoseconds

    package init() {}

    /// Counts an accepted connection.
    package func connectionOpened() {
        state.withLock {
            $0.acceptedConnections += 1
            $0.openConnections += 1
        }
    }

    /// Counts a closed connection (and whether it had a session).
    package func connectionClosed(wasAuthenticated: Bool) {
        state.withLock { state in
            state.openConnections -= 1
            if wasAuthenticated { state.authenticatedConnections -= 1 }
        }
    }

    /// Counts a connection that gained (`true`) or lost (`false`) its session.
    package func sessionChanged(authenticated: Bool) {
        state.withLock { $0.authenticatedConnections += authenticated ? 1 : -1 }
    }

    /// Counts a refused connection.
    package func connectionRejected() {
        state.withLock { $0.rejectedConnections += 1 }
    }

    /// Counts a connection the server shed (to make room, or for the memory it held).
    package func connectionShed() {
        state.withLock { $0.shedConnections += 1 }
    }

    /// Adds `delta` to the bytes connections hold for frames still arriving.
    ///
    /// - Returns: The new total.
    package func incompleteFrameBytesChanged(by delta: Int) -> Int {
        heldFrameBytes.wrappingAdd(delta, ordering: .relaxed).newValue
    }

    /// The bytes connections hold now for frames still arriving.
    package var incompleteFrameBytes: Int { heldFrameBytes.load(ordering: .relaxed) }

    /// The connections shed since start.
    package var shedConnections: UInt64 { state.withLock { $0.shedConnections } }

    /// The connections open now.
    package var openConnections: Int { state.withLock { $0.openConnections } }

    /// The figures as `Admin.Stats` reports them (store and writer figures are added by the server).
    package func snapshot() -> Workout_V1_StatsResponse {
        let counts = state.withLock { state in
            (state.openConnections, state.acceptedConnections, state.rejectedConnections, state.authenticatedConnections)
        }
        var methods: [UInt32: MethodCounters] = [:]
        for shard in shards {
            for (method, counters) in shard.methods.withLock({ $0 }) { methods[method, default: MethodCounters()].merge(counters) }
        }
        var response = Workout_V1_StatsResponse()
        response.uptimeMs = (DispatchTime.now().uptimeNanoseconds - startedAt) / 1_000_000
        response.openConnections = UInt32(clamping: counts.0)
        response.acceptedConnections = counts.1
        response.rejectedConnections = counts.2
        response.authenticatedConnections = UInt32(clamping: counts.3)
        response.methods = methods.keys.sorted().map { number in
            let counters = methods[number]!
            var method = Workout_V1_MethodStats()
            method.method = number
            method.name = MethodCatalog.method(number: number)?.name ?? "unknown"
            method.calls = counters.calls
            method.statuses = counters.statuses.keys.sorted().map { code in
                var count = Workout_V1_StatusCount()
                count.code = Workout_V1_StatusCode(rawValue: Int(code)) ?? .unknown
                count.count = counters.statuses[code]!
                return count
            }
            var latency = Workout_V1_LatencySummary()
            latency.p50Us = counters.latency.valueAtPercentile(50)
            latency.p90Us = counters.latency.valueAtPercentile(90)
            latency.p99Us = counters.latency.valueAtPercentile(99)
            latency.p999Us = counters.latency.valueAtPercentile(99.9)
            latency.maxUs = counters.latency.max
            method.latency = latency
            return method
        }
        return response
    }
}
