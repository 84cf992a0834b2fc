import WorkoutProtocol

/// Failed calls by status, with the first message the server gave for each status.
package struct ErrorTally: Sendable, Equatable {
    /// Count per status number.
    private(set) var counts: [UInt32: UInt64] = [:]
    /// The first message seen per status number.
    private(set) var firstMessages: [UInt32: String] = [:]

    /// No errors.
    package init() {}

    /// Counts a failed call; `message` is asked for only the first time a status is seen.
    mutating func record(status: UInt32, message: () -> String) {
        counts[status, default: 0] += 1
        if firstMessages[status] == nil { firstMessages[status] = message() }
    }

    /// Counts `count` failures of `status` with `message` (tests, merging).
    package mutating func record(status: UInt32, count: UInt64 = 1, message: String) {
        counts[status, default: 0] += count
        if firstMessages[status] == nil { firstMessages[status] = message }
    }

    /// All failed calls.
    package var total: UInt64 { counts.values.reduce(0, +) }

    /// Count per status name (`"NOT_FOUND"`, `"UNKNOWN(42)"`), as the report shows them.
    package var byName: [String: UInt64] {
        var named: [String: UInt64] = [:]
        for (code, count) in counts { named[StatusCode(rawValue: code).description, default: 0] += count }
        return named
    }

    /// The first message per status name.
    package var messagesByName: [String: String] {
        var named: [String: String] = [:]
        for (code, message) in firstMessages { named[StatusCode(rawValue: code).description] = message }
        return named
    }

    /// Forgets every error.
    mutating func reset() {
        counts = [:]
        firstMessages = [:]
    }
}
