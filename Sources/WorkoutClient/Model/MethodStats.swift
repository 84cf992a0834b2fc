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
