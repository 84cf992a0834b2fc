public import Foundation
import WorkoutRules

// "Today" means the member's day: the server files a record under the day the profile's
// time zone shows (unless the record names a zone of its own) and answers day queries in
// that zone. A device in another zone, or one that crossed midnight before the member's zone
// did, shows a different day; asking the server for the device's day near midnight gets the
// wrong day's meals.

extension Profile {
    /// The profile's time zone, ``timeZone``, as a `TimeZone`, resolved by the same rules as
    /// the server's; UTC when this device does not know the identifier (the server accepted
    /// it, so only an outdated time zone database lacks it).
    public var zone: TimeZone {
        TimeZoneCatalog.zone(orUTC: timeZone)
    }

    /// The member's today: the day the profile's time zone shows at `now`, the day the server
    /// means by today. Pass it to ``WorkoutClient/mealsOfDay(_:timeZone:)`` and
    /// ``WorkoutClient/summaries(from:to:granularity:)``.
    ///
    /// ```swift
    /// let signedIn = try await client.login(email: email, password: password)
    /// let today = try await client.mealsOfDay(signedIn.profile.today())
    /// ```
    ///
    /// - Parameter now: The instant (the current time by default; give one to test a midnight).
    /// - Returns: The day the member's wall clock shows at `now`.
    public func today(at now: Date = Date()) -> LocalDate {
        LocalDate(now, in: zone)
    }
}
