import WorkoutProtocol

/// The counters of one method since the server started (part of ``ServerStats``).
public struct MethodStats: Sendable, Hashable, Codable {
    /// The method number, e.g. 301.
    public var method: Int
    /// The catalog name, e.g. `"Logging.LogWorkout"`.
    public var name: String
    /// Calls finished.
    public var calls: Int
    /// Calls by final status, keyed by the status name (`"OK"`, `"NOT_FOUND"`, ...; a
    /// number this library does not know as `"UNKNOWN(42)"`). Statuses with no calls are
    /// left out.
    public var statuses: [String: Int]
    /// Latency distribution.
    public var latency: LatencySummary

    /// Creates method counters (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - method: The method number.
    ///   - name: The catalog name.
    ///   - calls: Calls finished.
    ///   - statuses: Calls by status name.
    ///   - latency: Latency distribution.
    public init(method: Int, name: String, calls: Int = 0, statuses: [String: Int] = [:], latency: LatencySummary = .init()) {
        self.method = method
        self.name = name
        self.calls = calls
        self.statuses = statuses
        self.latency = latency
    }
}

// MARK: Wire

extension MethodStats {
    /// Creates method counters from the wire. Several entries for one status are added up.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_MethodStats) {
        var statuses: [String: Int] = [:]
        for entry in wire.statuses {
            let status = StatusCode(rawValue: UInt32(truncatingIfNeeded: entry.code.rawValue))
            statuses[status.description, default: 0] += Int(clamping: entry.count)
        }
        self.init(
            method: Int(wire.method), name: wire.name, calls: Int(clamping: wire.calls), statuses: statuses,
            latency: LatencySummary(wire: wire.latency)
        )
    }

    /// These counters as the wire message: statuses in ascending number; a key that names
    /// no status (only possible in a value made by hand) counts as UNKNOWN.
    var wire: Workout_V1_MethodStats {
        var counts: [UInt32: UInt64] = [:]
        for (name, count) in statuses {
            counts[Self.statusNumber(named: name), default: 0] += UInt64(clamping: count)
        }
        var message = Workout_V1_MethodStats()
        message.method = UInt32(clamping: method)
        message.name = name
        message.calls = UInt64(clamping: calls)
        message.statuses = counts.sorted { $0.key < $1.key }.map { number, count in
            var entry = Workout_V1_StatusCount()
            entry.code = Workout_V1_StatusCode(rawValue: Int(number)) ?? .unknown
            entry.count = count
            return entry
        }
        message.latency = latency.wire
        return message
    }

    /// The status number a key of ``statuses`` names: a canonical name, or
    /// `"UNKNOWN(<number>)"`; UNKNOWN (2) for anything else.
    ///
    /// - Parameter name: The key.
    /// - Returns: The status number.
    private static func statusNumber(named name: String) -> UInt32 {
        if let known = StatusCode.allKnown.first(where: { $0.name == name }) {
            return known.rawValue
        }
        if name.hasPrefix("UNKNOWN("), name.hasSuffix(")"),
           let number = UInt32(name.dropFirst("UNKNOWN(".count).dropLast()) {
            return number
        }
        return StatusCode.unknown.rawValue
    }
}
