import Dispatch
import Histogram
import Synchronization
package import WorkoutProtocol

/// What the server counts: connections, and per method the calls, their statuses and their
/// latency (an HdrHistogram in microseconds). Updated from every connection's queue.
package final class ServerStatistics: Sendable {
    private struct MethodCounters {
        var calls: UInt64 = 0
        var statuses: [UInt32: UInt64] = [:]
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    }

    private struct State {
        var methods: [UInt32: MethodCounters] = [:]
        var acceptedConnections: UInt64 = 0
        var rejectedConnections: UInt64 = 0
        var openConnections = 0
        var authenticatedConnections = 0
    }

    private let state = Mutex(State())
    /// When the server started (uptime nanoseconds).
    package let startedAt = DispatchTime.now().uptimeNanoseconds

    package init() {}

    /// Counts a finished call.
    package func recordCall(method: UInt32, status: StatusCode, microseconds: UInt64) {
        state.withLock { state in
            state.methods[method, default: MethodCounters()].calls += 1
            state.methods[method]!.statuses[status.rawValue, default: 0] += 1
            _ = state.methods[method]!.latency.record(min(microseconds, 60_000_000))
        }
    }

    /// Counts an accepted connection.
    package func connectionOpened() {
        state.withLock {
            $0.acceptedConnections += 1
            $0.openConnections += 1
        }
    }

    /// Counts a closed connection (and whether it had a session).
    package func connectionClosed(wasAuthenticated: Bool) {
        state.withLock {
            $0.openConnections -= 1
            if wasAuthenticated { $0.authenticatedConnections -= 1 }
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

    /// The connections open now.
    package var openConnections: Int { state.withLock { $0.openConnections } }

    /// The figures as `Admin.Stats` reports them (store and writer figures are added by the server).
    package func snapshot() -> Workout_V1_StatsResponse {
        state.withLock { state in
            var response = Workout_V1_StatsResponse()
            response.uptimeMs = (DispatchTime.now().uptimeNanoseconds - startedAt) / 1_000_000
            response.openConnections = UInt32(clamping: state.openConnections)
            response.acceptedConnections = state.acceptedConnections
            response.rejectedConnections = state.rejectedConnections
            response.authenticatedConnections = UInt32(clamping: state.authenticatedConnections)
            response.methods = state.methods.keys.sorted().map { number in
                let counters = state.methods[number]!
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
}
