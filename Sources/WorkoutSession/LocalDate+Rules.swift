// The client's public calendar day (`LocalDate`) and the shared rules' day (`LocalDay`) are the
// same proleptic Gregorian day number; these bridge them, and resolve a record's zone the way
// the server does, so that a guess made on the device lands on the server's day.

import Foundation
import WorkoutClient
import WorkoutOffline
import WorkoutRules

extension LocalDate {
    /// The same calendar day as a rules day.
    init(_ day: LocalDay) {
        self.init(epochDay: Int(day.epochDay))
    }

    /// This day as the shared rules count it (days beyond ±5.8 million years clamp; no member
    /// lives there).
    var rulesDay: LocalDay {
        LocalDay(epochDay: Int32(clamping: epochDay))
    }

    /// The local day of `instant` in the zone named `zoneName`, as the server computes a
    /// record's day (`LocalDay.containing(instant:in:)`); `fallbackZone` when the name is not a
    /// zone the rules accept (the server would refuse such a write, which the outbox then shows).
    static func containing(_ instant: Date, zoneName: String, fallbackZone: String) -> LocalDate {
        let zone = (try? TimeZoneCatalog.zone(named: zoneName, field: "time_zone"))
            ?? (try? TimeZoneCatalog.zone(named: fallbackZone, field: "time_zone"))
            ?? TimeZoneCatalog.utc
        // An instant the server would refuse (before 2000, or ages ahead) may wait in the outbox;
        // its guessed day need not be right, only computable: within ±31,000 years the rules'
        // arithmetic cannot overflow.
        let bound: Int64 = 1_000_000_000_000_000
        return LocalDate(LocalDay.containing(instant: min(max(instant.wireMilliseconds, -bound), bound), in: zone))
    }
}
