import Foundation
import Testing
import TestSupport
import WorkoutRules

/// Runs a validation expected to fail and returns its error.
private func failure(_ body: () throws(DomainError) -> Void) -> DomainError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Bounds")
struct BoundsTests {
    // MARK: Text

    @Test("Text within its byte bounds and free of control characters passes", arguments: [
        ("A", 1...64), ("Zoë", 1...64), (String(repeating: "a", count: 64), 1...64), ("", 0...64),
        (String(repeating: "é", count: 32), 1...64), ("👩‍👩‍👧", 1...64),
    ])
    func goodText(value: String, bytes: ClosedRange<Int>) throws {
        try Bounds.text(value, field: "first_name", bytes: bytes)
    }

    @Test("Text that is too short, too long or holds control characters names the field", arguments: [
        ("", 1...64, "first_name must be 1 to 64 bytes long (got 0 bytes)"),
        (String(repeating: "a", count: 65), 1...64, "first_name must be 1 to 64 bytes long (got 65 bytes)"),
        (String(repeating: "é", count: 33), 0...64, "first_name must be at most 64 bytes long (got 66 bytes)"),
        ("Ann\n", 1...64, "first_name must not contain control characters (found U+000A)"),
        ("A\u{0}B", 1...64, "first_name must not contain control characters (found U+0000)"),
        ("Tab\there", 1...64, "first_name must not contain control characters (found U+0009)"),
        ("del\u{7F}", 1...64, "first_name must not contain control characters (found U+007F)"),
        ("c1\u{85}", 1...64, "first_name must not contain control characters (found U+0085)"),
    ])
    func badText(value: String, bytes: ClosedRange<Int>, message: String) {
        let error = failure { () throws(DomainError) in try Bounds.text(value, field: "first_name", bytes: bytes) }
        #expect(error == .invalid("first_name", message))
    }

    @Test("Control characters pass where allowed, like notes")
    func controlCharactersAllowed() throws {
        try Bounds.text("line one\nline two\ttabbed", field: "workout.notes", bytes: 0...1000, allowControlCharacters: true)
    }

    // MARK: Numbers

    @Test("Finite numbers within range pass, and 0 where it means not stated", arguments: [
        (0.0, 0.0...10_000.0, false), (10_000.0, 0...10_000, false), (523.5, 0...10_000, false),
        (0.0, 50...272, true), (50.0, 50...272, true), (272.0, 50...272, true), (0.01, 0.01...100, true),
    ])
    func goodNumbers(value: Double, range: ClosedRange<Double>, zeroAsUnset: Bool) throws {
        try Bounds.number(value, field: "profile.height_cm", range: range, allowZeroAsUnset: zeroAsUnset)
    }

    @Test("NaN, infinities and numbers out of range name the field and the bound", arguments: [
        (-5.0, 0.0...10_000.0, false, "meal.items[3].calories must be between 0 and 10000 (got -5)"),
        (10_000.5, 0...10_000, false, "meal.items[3].calories must be between 0 and 10000 (got 10000.5)"),
        (Double.nan, 0...10_000, false, "meal.items[3].calories must be a finite number between 0 and 10000 (got nan)"),
        (Double.infinity, 0...10_000, false, "meal.items[3].calories must be a finite number between 0 and 10000 (got inf)"),
        (-Double.infinity, 0...10_000, false, "meal.items[3].calories must be a finite number between 0 and 10000 (got -inf)"),
        (20.0, 50...272, true, "meal.items[3].calories must be 0 (not stated) or between 50 and 272 (got 20)"),
        (-0.5, 0.01...100, true, "meal.items[3].calories must be 0 (not stated) or between 0.01 and 100 (got -0.5)"),
        (Double.nan, 50...272, true, "meal.items[3].calories must be a finite number 0 (not stated) or between 50 and 272 (got nan)"),
    ])
    func badNumbers(value: Double, range: ClosedRange<Double>, zeroAsUnset: Bool, message: String) {
        let error = failure { () throws(DomainError) in
            try Bounds.number(value, field: "meal.items[3].calories", range: range, allowZeroAsUnset: zeroAsUnset)
        }
        #expect(error == .invalid("meal.items[3].calories", message))
    }

    // MARK: Integers

    @Test("Integers within range pass, and 0 where it means not stated", arguments: [
        (UInt32(1), UInt32(1)...86_400, false), (86_400, 1...86_400, false), (0, 5...120, true), (5, 5...120, true), (120, 5...120, true),
    ])
    func goodIntegers(value: UInt32, range: ClosedRange<UInt32>, zeroAsUnset: Bool) throws {
        try Bounds.integer(value, field: "workout.duration_seconds", range: range, allowZeroAsUnset: zeroAsUnset)
    }

    @Test("Integers out of range name the field and the bound", arguments: [
        (UInt32(0), UInt32(1)...86_400, false, "workout.duration_seconds must be between 1 and 86400 (got 0)"),
        (108_000, 1...86_400, false, "workout.duration_seconds must be between 1 and 86400 (got 108000)"),
        (4, 5...120, true, "workout.duration_seconds must be 0 (not stated) or between 5 and 120 (got 4)"),
        (121, 5...120, true, "workout.duration_seconds must be 0 (not stated) or between 5 and 120 (got 121)"),
    ])
    func badIntegers(value: UInt32, range: ClosedRange<UInt32>, zeroAsUnset: Bool, message: String) {
        let error = failure { () throws(DomainError) in
            try Bounds.integer(value, field: "workout.duration_seconds", range: range, allowZeroAsUnset: zeroAsUnset)
        }
        #expect(error == .invalid("workout.duration_seconds", message))
    }

    @Test("Signed integers and counts are checked the same way")
    func signedIntegers() {
        let error = failure { () throws(DomainError) in try Bounds.integer(Int64(-1), field: "meal.items", range: 0...100) }
        #expect(error == .invalid("meal.items", "meal.items must be between 0 and 100 (got -1)"))
        #expect(failure { () throws(DomainError) in try Bounds.integer(101, field: "meal.items", range: 0...100) }?.field == "meal.items")
    }

    // MARK: Bytes and ids

    @Test("A record id is 16 bytes, not all zero, and becomes a UUID with its bytes in order")
    func goodRecordID() throws {
        let bytes: [UInt8] = Array(1...16)
        let id = try Bounds.recordID(bytes, field: "workout.id")
        #expect(id.uuidString == "01020304-0506-0708-090A-0B0C0D0E0F10")
        #expect(try Bounds.recordID(Data(bytes), field: "workout.id") == id)
        #expect(try Bounds.recordID([UInt8](repeating: 0, count: 15) + [1], field: "workout.id").uuidString == "00000000-0000-0000-0000-000000000001")
    }

    @Test("Record ids of the wrong length or all zero name the field", arguments: [
        ([UInt8](), "workout.id must be exactly 16 bytes long (got 0 bytes)"),
        ([UInt8](repeating: 7, count: 15), "workout.id must be exactly 16 bytes long (got 15 bytes)"),
        ([UInt8](repeating: 7, count: 17), "workout.id must be exactly 16 bytes long (got 17 bytes)"),
        ([UInt8](repeating: 0, count: 16), "workout.id must not be all zero bytes"),
    ])
    func badRecordID(bytes: [UInt8], message: String) {
        let error = failure { () throws(DomainError) in _ = try Bounds.recordID(Data(bytes), field: "workout.id") }
        #expect(error == .invalid("workout.id", message))
    }

    @Test("Byte counts are checked, exact and ranged", arguments: [
        (32, 32...32, Optional<String>.none), (31, 32...32, "session_token must be exactly 32 bytes long (got 31 bytes)"),
        (0, 0...256, nil), (257, 0...256, "session_token must be at most 256 bytes long (got 257 bytes)"),
    ])
    func byteCounts(count: Int, range: ClosedRange<Int>, message: String?) {
        let error = failure { () throws(DomainError) in
            try Bounds.byteCount([UInt8](repeating: 1, count: count), field: "session_token", range: range)
        }
        #expect(error == message.map { .invalid("session_token", $0) })
    }

    // MARK: Times

    static let now: Int64 = 1_774_742_400_000 // 2026-03-29T00:00:00Z

    @Test("Event times from 2000 to one day past the server's clock pass", arguments: [
        Int64(946_684_800_000), now, now + 86_400_000, 1_234_567_890_123,
    ])
    func goodEventTimes(milliseconds: Int64) throws {
        try Bounds.eventTime(milliseconds, field: "workout.performed_at_ms", now: Self.now)
    }

    @Test("Event times before 2000 or more than a day ahead name the field", arguments: [
        Int64(946_684_799_999), 0, -1, now + 86_400_001, .max, .min,
    ])
    func badEventTimes(milliseconds: Int64) {
        let error = failure { () throws(DomainError) in try Bounds.eventTime(milliseconds, field: "workout.performed_at_ms", now: Self.now) }
        #expect(error?.field == "workout.performed_at_ms")
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "workout.performed_at_ms must be between 946684800000 (2000-01-01T00:00:00Z) and 1774828800000 (server time + 1 day), in milliseconds since 1970 (got \(milliseconds))")
    }

    @Test("Query time ranges are unbounded at 0, checked otherwise, and ordered")
    func timeRanges() throws {
        let unbounded = try Bounds.timeRange(from: 0, to: 0, fromField: "from_ms", toField: "to_ms", now: Self.now)
        #expect(unbounded.from == nil && unbounded.to == nil)
        let bounded = try Bounds.timeRange(from: 1_000_000_000_000, to: 1_000_000_000_001, fromField: "from_ms", toField: "to_ms", now: Self.now)
        #expect(bounded.from == 1_000_000_000_000 && bounded.to == 1_000_000_000_001)
        let reversed = failure { () throws(DomainError) in
            _ = try Bounds.timeRange(from: 1_000_000_000_000, to: 1_000_000_000_000, fromField: "from_ms", toField: "to_ms", now: Self.now)
        }
        #expect(reversed?.field == "to_ms")
        let early = failure { () throws(DomainError) in
            _ = try Bounds.timeRange(from: 5, to: 0, fromField: "from_ms", toField: "to_ms", now: Self.now)
        }
        #expect(early?.field == "from_ms")
    }

    @Test("A day after the latest allowed day names the field")
    func latestDay() throws {
        let latest = LocalDay.containing(instant: Self.now, in: zone("UTC")).adding(days: 1)
        try Bounds.day(LocalDay("2026-03-30"), field: "report.day", latest: latest)
        try Bounds.day(LocalDay("2000-01-01"), field: "report.day", latest: latest)
        let error = failure { () throws(DomainError) in try Bounds.day(LocalDay("2026-03-31"), field: "report.day", latest: latest) }
        #expect(error == .invalid("report.day", "report.day must be on or before 2026-03-30 (got 2026-03-31)"))
    }

    // MARK: Email and passwords

    @Test("Good email addresses pass and come back lowercased", arguments: [
        ("a@b", "a@b"), ("Anna.Berg@Example.COM", "anna.berg@example.com"), ("x+tag@mail.example", "x+tag@mail.example"),
        ("ÉMILE@exemple.fr", "émile@exemple.fr"),
        (String(repeating: "a", count: 250) + "@b.c", String(repeating: "a", count: 250) + "@b.c"),
    ])
    func goodEmails(value: String, normalized: String) throws {
        #expect(try Bounds.email(value, field: "email") == normalized)
    }

    @Test("Bad email addresses name the field", arguments: [
        ("", "email must be 3 to 254 bytes long (got 0 bytes)"),
        ("a@", "email must be 3 to 254 bytes long (got 2 bytes)"),
        (String(repeating: "a", count: 251) + "@b.c", "email must be 3 to 254 bytes long (got 255 bytes)"),
        ("anna.example.com", "email must contain exactly one '@' (got 0)"),
        ("a@b@c", "email must contain exactly one '@' (got 2)"),
        ("@example.com", "email must have text before and after the '@'"),
        ("anna@", "email must have text before and after the '@'"),
        (" anna@example.com", "email must not contain spaces (found U+0020)"),
        ("anna@example.com ", "email must not contain spaces (found U+0020)"),
        ("an na@example.com", "email must not contain spaces (found U+0020)"),
        ("anna@exam\u{A0}ple.com", "email must not contain spaces (found U+00A0)"),
        ("anna@example.com\n", "email must not contain control characters (found U+000A)"),
        ("anna\u{0}@example.com", "email must not contain control characters (found U+0000)"),
    ])
    func badEmails(value: String, message: String) {
        let error = failure { () throws(DomainError) in _ = try Bounds.email(value, field: "email") }
        #expect(error == .invalid("email", message))
    }

    @Test("New passwords are 8 to 256 bytes, and the message never echoes them", arguments: [
        ("12345678", true), (String(repeating: "p", count: 256), true), ("1234567", false), ("", false),
        (String(repeating: "p", count: 257), false), ("pässwörd", true), ("pässw", false),
    ])
    func newPasswords(value: String, accepted: Bool) {
        let error = failure { () throws(DomainError) in try Bounds.password(new: value) }
        #expect(error == (accepted ? nil : .invalid("new_password", "new_password must be 8 to 256 bytes long")))
    }

    @Test("Presented passwords are 1 to 256 bytes, so old short passwords can still sign in", arguments: [
        ("x", true), ("1234567", true), (String(repeating: "p", count: 256), true), ("", false), (String(repeating: "p", count: 257), false),
    ])
    func presentedPasswords(value: String, accepted: Bool) {
        let error = failure { () throws(DomainError) in try Bounds.password(presented: value) }
        #expect(error == (accepted ? nil : .invalid("password", "password must be 1 to 256 bytes long")))
    }

    // MARK: Page sizes

    @Test("Page sizes default at 0 and are capped", arguments: [
        (UInt32(0), Optional(20)), (1, 1), (100, 100), (101, nil),
    ])
    func pageSizes(value: UInt32, expected: Int?) {
        do {
            let size = try Bounds.pageSize(value, field: "page_size", maximum: 100, defaultSize: 20)
            #expect(size == expected)
        } catch {
            #expect(expected == nil)
            #expect(error == .invalid("page_size", "page_size must be between 0 (default 20) and 100 (got \(value))"))
        }
    }
}
