import Foundation
import Testing
import TestSupport
import WorkoutRules

@Suite("Time zone catalog")
struct TimeZoneCatalogTests {
    @Test("IANA zone names the platform knows are accepted, and UTC spellings too", arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Pacific/Apia",
        "Asia/Kolkata", "Asia/Calcutta", "America/Argentina/Buenos_Aires", "Europe/Kyiv", "Etc/GMT+5", "UTC", "Etc/UTC", "GMT",
    ])
    func valid(name: String) throws {
        let zone = try TimeZoneCatalog.zone(named: name, field: "profile.time_zone")
        #expect(TimeZoneCatalog.isKnown(name))
        // A second lookup (from the cache) gives the same zone.
        #expect(try TimeZoneCatalog.zone(named: name, field: "profile.time_zone") == zone)
    }

    @Test("Offsets, wrong case, unknown places and stray spaces are refused naming the field", arguments: [
        "GMT+5", "UTC+01:00", "+01:00", "europe/berlin", "Europe/Berlin ", " Europe/Berlin", "Mars/Olympus_Mons", "Europe",
        "Berlin", "Europe/Berlin\n", "../etc/passwd", "Europe/Nowhere", "Europe//Berlin", "Europe/", "Asia/Kolkata/",
        "Europe/Berlin/..", "EST", "PST8PDT", "Mars/Berlin",
    ])
    func unknown(name: String) {
        // Abbreviation zones are refused unless a platform happens to list them.
        if TimeZone.knownTimeZoneIdentifiers.contains(name) { return }
        #expect(!TimeZoneCatalog.isKnown(name))
        do {
            _ = try TimeZoneCatalog.zone(named: name, field: "workout.time_zone")
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error == .invalid("workout.time_zone", "workout.time_zone must be an IANA time zone this server knows, such as Europe/Berlin (got \"\(name)\")"))
        }
    }

    @Test("Empty and over-long names are refused by length", arguments: [
        ("", 0), (String(repeating: "A", count: 65), 65), ("Europe/" + String(repeating: "x", count: 58), 65),
    ])
    func length(name: String, bytes: Int) {
        #expect(!TimeZoneCatalog.isKnown(name))
        do {
            _ = try TimeZoneCatalog.zone(named: name, field: "time_zone")
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error == .invalid("time_zone", "time_zone must be an IANA time zone name of 1 to 64 bytes (got \(bytes) bytes)"))
        }
    }

    @Test("An empty name falls back to the default zone; a bad one still throws")
    func defaultZone() throws {
        let berlin = zone("Europe/Berlin")
        #expect(try TimeZoneCatalog.zone(named: "", field: "meal.time_zone", orDefault: berlin) == berlin)
        #expect(try TimeZoneCatalog.zone(named: "America/New_York", field: "meal.time_zone", orDefault: berlin).identifier == "America/New_York")
        #expect(throws: DomainError.self) { try TimeZoneCatalog.zone(named: "GMT+5", field: "meal.time_zone", orDefault: berlin) }
    }

    @Test("Every name the platform lists is accepted, and the zone has that identifier")
    func everyListedName() throws {
        for name in TimeZone.knownTimeZoneIdentifiers where name.utf8.count <= 64 {
            #expect(try TimeZoneCatalog.zone(named: name, field: "time_zone").identifier == name)
        }
    }

    @Test("Concurrent lookups are safe and agree")
    func concurrent() async throws {
        let names = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"]
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask { try TimeZoneCatalog.zone(named: names[index % names.count], field: "time_zone").identifier }
            }
            for try await identifier in group { #expect(!identifier.isEmpty) }
        }
    }
}
