import Foundation
import Testing
import WorkoutClient
@testable import workout

/// Times are read and shown in the member's profile zone, not this machine's, and the output
/// says so when the two differ (``MemberZone``).
@Suite("The profile's zone in the CLI")
struct ProfileZoneTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = "Europe/Berlin"

    /// 2027-01-01T07:00:00Z: 08:00 in Berlin (CET, +01:00).
    static let breakfast = Date(timeIntervalSince1970: 1_798_786_800)

    @Test("A Berlin member on a UTC machine reads and sees Berlin's times")
    func berlinOnUTC() throws {
        let member = MemberZone(profileZone: Self.berlin, machine: Self.utc)
        #expect(member.identifier == "Europe/Berlin")
        #expect(Format.clock(Self.breakfast, in: member.zone) == "08:00")
        #expect(Format.dateTime(Self.breakfast, in: member.zone) == "2027-01-01 08:00")
        let typed = try TimeArgument(parsing: "2027-01-01T08:00")
        #expect(typed.resolve(now: Self.breakfast, in: member.zone) == Self.breakfast)
        #expect(try TimeArgument(parsing: "08:00").resolve(now: Self.breakfast, in: member.zone) == Self.breakfast)
    }

    @Test("Today is the profile zone's: 23:30 UTC on New Year's Eve is New Year's Day in Berlin")
    func today() {
        let lateOnNewYearsEve = Date(timeIntervalSince1970: 1_798_759_800)  // 2026-12-31T23:30:00Z
        #expect(MemberZone(profileZone: Self.berlin, machine: Self.utc).today(now: lateOnNewYearsEve) == LocalDate(year: 2027, month: 1, day: 1))
        #expect(MemberZone(profileZone: "UTC", machine: Self.utc).today(now: lateOnNewYearsEve) == LocalDate(year: 2026, month: 12, day: 31))
    }

    @Test("The last line names both zones when they differ")
    func noteWhenDifferent() {
        #expect(MemberZone(profileZone: Self.berlin, machine: Self.utc).note
            == "Times are in Europe/Berlin, the profile's zone (this machine: UTC).")
    }

    @Test("No note when the machine keeps the profile's time", arguments: [
        ("Europe/Berlin", "Europe/Berlin"), ("UTC", "Etc/UTC"), ("UTC", "GMT"),
    ])
    func noNoteWhenSame(profile: String, machine: String) throws {
        #expect(MemberZone(profileZone: profile, machine: try #require(TimeZone(identifier: machine))).note == nil)
    }

    @Test("Without a known profile zone, the machine's is used and the note says so")
    func unknownProfileZone() {
        let member = MemberZone(profileZone: nil, machine: Self.utc)
        #expect(member.zone == Self.utc)
        #expect(member.isProfileZone == false)
        #expect(member.note?.hasPrefix("Times are in UTC, this machine's zone: the profile's is not known here yet") == true)
    }

    @Test("Credentials stored before the zone was kept still decode, without one")
    func oldCredentials() throws {
        let json = #"{"email": "ada@example.com", "server": "127.0.0.1:7420", "sessionToken": "\#(Data(repeating: 7, count: 32).base64EncodedString())"}"#
        let credentials = try JSONDecoder().decode(Credentials.self, from: Data(json.utf8))
        #expect(credentials.timeZone == nil)
    }
}
