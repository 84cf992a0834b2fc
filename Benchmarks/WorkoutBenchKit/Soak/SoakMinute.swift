/// One minute of a soak (`--soak`): what the bench saw in that minute, and what the server's
/// Admin.Stats said at its end. One element of the report's `soak` array.
package struct SoakMinute: Sendable, Equatable, Codable {
    /// The minute's number, from 1.
    package var minute: Int
    /// Calls answered in the minute (failed ones included).
    package var calls: UInt64
    /// Calls of the minute that failed.
    package var errors: UInt64
    /// Household rounds (app openings) completed in the minute.
    package var rounds: UInt64
    /// Full logins (Auth.Login) answered in the minute.
    package var logins: UInt64
    /// STREAM_MESSAGE frames the Watch streams received in the minute.
    package var watchEvents: UInt64
    /// The minute's latency percentiles and maximum, µs (an HdrHistogram reset each minute).
    package var p50Microseconds: Double
    /// See ``p50Microseconds``.
    package var p99Microseconds: Double
    /// See ``p50Microseconds``.
    package var maxMicroseconds: Double
    /// The server's anonymous resident memory at the minute's end, bytes.
    package var rssAnonBytes: UInt64
    /// The server's whole resident memory (mapped store pages included), bytes.
    package var rssBytes: UInt64
    /// Descriptors the server process holds open.
    package var openDescriptors: UInt32
    /// Connections open on the server (the bench's own included).
    package var openConnections: UInt32
    /// The LMDB map size (the store file), bytes.
    package var storeSizeBytes: UInt64
    /// Bytes of the store in use.
    package var storeUsedBytes: UInt64
    /// The server's CPU time since it started, µs (user + system).
    package var serverCPUMicroseconds: UInt64
    /// The server's CPU use over the minute, percent of one core (from the CPU time and the
    /// server's uptime at this and the previous sample).
    package var serverCPUPercent: Double
    /// Connections the server shed since it started (incomplete-frame budget, idle without a session).
    package var shedConnections: UInt64
    /// Bytes of incomplete frames the server holds at the minute's end.
    package var incompleteFrameBytes: UInt64

    /// A minute; see each property.
    package init(
        minute: Int, calls: UInt64, errors: UInt64, rounds: UInt64, logins: UInt64, watchEvents: UInt64, p50Microseconds: Double,
        p99Microseconds: Double, maxMicroseconds: Double, rssAnonBytes: UInt64, rssBytes: UInt64, openDescriptors: UInt32,
        openConnections: UInt32, storeSizeBytes: UInt64, storeUsedBytes: UInt64, serverCPUMicroseconds: UInt64,
        serverCPUPercent: Double, shedConnections: UInt64, incompleteFrameBytes: UInt64
    ) {
        self.minute = minute
        self.calls = calls
        self.errors = errors
        self.rounds = rounds
        self.logins = logins
        self.watchEvents = watchEvents
        self.p50Microseconds = p50Microseconds
        self.p99Microseconds = p99Microseconds
        self.maxMicroseconds = maxMicroseconds
        self.rssAnonBytes = rssAnonBytes
        self.rssBytes = rssBytes
        self.openDescriptors = openDescriptors
        self.openConnections = openConnections
        self.storeSizeBytes = storeSizeBytes
        self.storeUsedBytes = storeUsedBytes
        self.serverCPUMicroseconds = serverCPUMicroseconds
        self.serverCPUPercent = serverCPUPercent
        self.shedConnections = shedConnections
        self.incompleteFrameBytes = incompleteFrameBytes
    }

    enum CodingKeys: String, CodingKey {
        case minute, calls, errors, rounds, logins
        case watchEvents = "watch_events"
        case p50Microseconds = "p50_us"
        case p99Microseconds = "p99_us"
        case maxMicroseconds = "max_us"
        case rssAnonBytes = "rss_anon_bytes"
        case rssBytes = "rss_bytes"
        case openDescriptors = "open_descriptors"
        case openConnections = "open_connections"
        case storeSizeBytes = "store_size_bytes"
        case storeUsedBytes = "store_used_bytes"
        case serverCPUMicroseconds = "process_cpu_us"
        case serverCPUPercent = "server_cpu_percent"
        case shedConnections = "shed_connections"
        case incompleteFrameBytes = "incomplete_frame_bytes"
    }
}
