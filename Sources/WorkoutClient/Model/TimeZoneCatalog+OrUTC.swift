package import Foundation
package import WorkoutRules

extension TimeZoneCatalog {
    /// The zone with an accepted IANA name, or UTC: a profile's zone as this device resolves it
    /// (the session model's too).
    ///
    /// - Parameter name: An IANA time zone identifier.
    /// - Returns: The zone the shared rules accept under `name`, or UTC.
    package static func zone(orUTC name: String) -> TimeZone {
        (try? zone(named: name, field: "time_zone")) ?? utc
    }
}
