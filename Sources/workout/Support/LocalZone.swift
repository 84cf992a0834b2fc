import Foundation

/// The user's time zone: this machine's (`TZ`, else the system's), in which `--at 07:30`,
/// "today" and shown times are meant. Records are logged with its name, so the server
/// counts their day (and streaks) in the zone they happened in.
enum LocalZone {
    /// The zone.
    static var current: TimeZone { TimeZone.current }

    /// Its IANA name, sent with records and queries.
    static var identifier: String { TimeZone.current.identifier }
}
