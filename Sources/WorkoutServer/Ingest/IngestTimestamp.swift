import WorkoutRules

/// A date as the phone apps write it: Health Auto Export's `yyyy-MM-dd HH:mm:ss Z`, or ISO 8601
/// with an offset (`2026-12-02T20:00:00+01:00`, `…Z`, with or without fractional seconds, as
/// Java's `Instant.toString()` writes Health Connect's): its instant, and the local day and hour
/// it names in its own offset.
struct IngestTimestamp: Sendable {
    /// The date as written.
    var text: String
    /// Its instant, in milliseconds since 1970 (a fraction of a second is dropped).
    var milliseconds: Int64
    /// The day it names, in its own offset.
    var day: LocalDay
    /// The hour it names, in its own offset.
    var hour: Int

    /// The date of `text`; `nil` when it is not one of the forms above (or longer than 40 bytes).
    init?(_ text: String) {
        guard text.utf8.count <= 40 else { return nil }
        let date: Substring, clock: Substring, zone: Substring
        if let t = text.firstIndex(of: "T") {
            date = text[..<t]
            let rest = text[text.index(after: t)...]
            guard let zoneStart = rest.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) else { return nil }
            clock = rest[..<zoneStart]
            zone = rest[zoneStart...]
        } else {
            let parts = text.split(separator: " ")
            guard parts.count == 3 else { return nil }
            (date, clock, zone) = (parts[0], parts[1], parts[2])
        }
        let dateParts = date.split(separator: "-", omittingEmptySubsequences: false).compactMap { Int32($0) }
        // Seconds may carry a fraction (ISO 8601); it is dropped, as Health Auto Export's dates have none.
        let clockParts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard dateParts.count == 3, clockParts.count == 3,
              let hours = Int(clockParts[0]), let minutes = Int(clockParts[1]),
              let seconds = Int(clockParts[2].prefix { $0 != "." && $0 != "," }),
              (0..<24).contains(hours), (0..<60).contains(minutes), (0..<61).contains(seconds),
              let offset = Self.offsetSeconds(zone),
              let day = LocalDay(year: dateParts[0], month: dateParts[1], day: dateParts[2])
        else { return nil }
        let local = Int64(day.epochDay) * LocalDay.millisecondsPerDay + Int64((hours * 3_600 + minutes * 60 + seconds) * 1_000)
        self.text = text
        milliseconds = local - Int64(offset) * 1_000
        self.day = day
        hour = hours
    }

    /// `Z`, `+0100`, `+01:00` or `-05` as seconds east of UTC; `nil` for anything else.
    private static func offsetSeconds(_ zone: Substring) -> Int? {
        if zone == "Z" { return 0 }
        guard let sign = zone.first, sign == "+" || sign == "-" else { return nil }
        let digits = zone.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return nil }
        let (hours, minutes) = digits.count == 2 ? (value, 0) : (value / 100, value % 100)
        guard hours <= 18, minutes < 60 else { return nil }
        return (hours * 3_600 + minutes * 60) * (sign == "-" ? -1 : 1)
    }
}
