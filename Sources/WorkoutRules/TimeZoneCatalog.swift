// TimeZoneCatalog: which time zone names the server accepts, and a cache of them.
//
// Records and profiles name their zone by IANA identifier. `TimeZone(identifier:)` alone
// is too lenient for a stored, long-lived value: it also accepts offsets such as
// "GMT+5" or "UTC+1" and abbreviations such as "EST", which name no place's rules. And
// `TimeZone.knownTimeZoneIdentifiers` alone is too strict: on Linux it is ICU's list,
// which has "Asia/Calcutta" but not the current IANA name "Asia/Kolkata" that phones
// send. So a name of 1...64 bytes is accepted when it is
//
// 1. one of `TimeZone.knownTimeZoneIdentifiers` (e.g. "Europe/Berlin", "GMT"), or
// 2. "UTC" or "Etc/UTC" (what phones and Linux hosts report for UTC), or
// 3. an IANA "Area/Location" name — the area one of the tz database's continents and
//    oceans or "Etc", the rest made of ASCII letters, digits, `_`, `-`, `+` and `/` —
//    that Foundation resolves to a zone with exactly that identifier (e.g.
//    "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Etc/GMT+5").
//
// Deprecated backward-compatibility links such as "US/Eastern" or "Canada/Pacific" are
// refused unless the platform lists them. Names are case-sensitive, exactly as IANA
// spells them. Accepted zones are cached behind a `Mutex`, so a repeated lookup costs one
// dictionary probe; refused names are not cached (a client could send endless ones).

package import Foundation
import Synchronization

/// The time zones the server accepts, by IANA identifier, with a thread-safe cache.
package enum TimeZoneCatalog {
    /// The longest zone name accepted, in UTF-8 bytes.
    package static let maximumNameBytes = 64

    /// Accepted UTC spellings that `TimeZone.knownTimeZoneIdentifiers` does not list.
    package static let extraUTCNames: Set<String> = ["UTC", "Etc/UTC"]

    /// UTC.
    package static let utc = TimeZone(identifier: "UTC")!

    /// The names accepted without further checks: the platform's known identifiers plus
    /// the UTC spellings.
    package static let listedNames: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(extraUTCNames)

    /// The first components of IANA region names ("Europe" in "Europe/Berlin").
    package static let ianaAreas: Set<Substring> = [
        "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific", "Etc",
    ]

    private static let cache = Mutex<[String: TimeZone]>([:])

    /// The zone with an IANA name, validated for a request field.
    ///
    /// - Parameters:
    ///   - name: The IANA identifier, e.g. `Europe/Berlin`.
    ///   - field: The request field's path, e.g. `workout.time_zone`.
    /// - Returns: The zone.
    /// - Throws: `DomainError.invalid(field, …)` when the name is empty, longer than 64
    ///   bytes, or not a zone this server knows.
    package static func zone(named name: String, field: String) throws(DomainError) -> TimeZone {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let bytes = name.utf8.count
        guard (1...maximumNameBytes).contains(bytes) else {
            throw .invalid(field, "\(field) must be an IANA time zone name of 1 to \(maximumNameBytes) bytes (got \(bytes) bytes)")
        }
        guard let zone = resolve(name) else {
            throw .invalid(field, "\(field) must be an IANA time zone this server knows, such as Europe/Berlin (got \"\(name)\")")
        }
        cache.withLock { $0[name] = zone }
        return zone
    }

    /// The zone with an IANA name, or a default when the name is empty (records and
    /// requests where an empty zone means "the member's profile zone").
    ///
    /// - Parameters:
    ///   - name: The IANA identifier, or the empty string.
    ///   - field: The request field's path.
    ///   - defaultZone: The zone to use when `name` is empty.
    /// - Returns: The named zone, or `defaultZone`.
    /// - Throws: `DomainError.invalid(field, …)` when a non-empty name is not accepted.
    package static func zone(named name: String, field: String, orDefault defaultZone: TimeZone) throws(DomainError) -> TimeZone {
        name.isEmpty ? defaultZone : try zone(named: name, field: field)
    }

    /// Whether the catalog accepts a name.
    ///
    /// - Parameter name: A candidate IANA identifier.
    /// - Returns: `true` if `zone(named:field:)` would return a zone for it.
    package static func isKnown(_ name: String) -> Bool {
        if cache.withLock({ $0[name] }) != nil { return true }
        return (1...maximumNameBytes).contains(name.utf8.count) && resolve(name) != nil
    }

    /// The zone for a name that passes the catalog's rules, or `nil`.
    private static func resolve(_ name: String) -> TimeZone? {
        if listedNames.contains(name) { return TimeZone(identifier: name) }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, ianaAreas.contains(parts[0]),
              parts.dropFirst().allSatisfy({ part in
                  !part.isEmpty && part.utf8.allSatisfy { byte in
                      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                  }
              }),
              let zone = TimeZone(identifier: name), zone.identifier == name
        else { return nil }
        return zone
    }
}
