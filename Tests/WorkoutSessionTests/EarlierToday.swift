import Foundation

/// `seconds` before `now`, but not before the start of `now`'s day in `zone`: the time of a record
/// a test expects on the member's today, also when the test runs in the first minutes after the
/// member's midnight (when `now` minus a few minutes is yesterday).
///
/// - Parameters:
///   - seconds: How long before `now`.
///   - now: The test's now.
///   - zone: The member's time zone (the test's records are in it too).
/// - Returns: The time, on `now`'s local day.
func earlierToday(_ seconds: TimeInterval, before now: Date, in zone: String) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
    let startOfToday = calendar.startOfDay(for: now)
    return max(now.addingTimeInterval(-seconds), startOfToday.addingTimeInterval(1))
}
