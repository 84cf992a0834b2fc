import Testing
@testable import workout

/// RFC 4180 quoting.
@Suite("CSV quoting")
struct CSVTests {
    @Test("Fields are quoted only when they must be, quotes doubled", arguments: [
        ("plain", "plain"),
        ("", ""),
        ("72.4", "72.4"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("crlf\r\nbreak", "\"crlf\r\nbreak\""),
        ("cr\rhere", "\"cr\rhere\""),
        (" padded ", "\" padded \""),
        ("Crème brûlée; 2 servings", "Crème brûlée; 2 servings"),
    ])
    func quoting(value: String, expected: String) {
        #expect(CSV.field(value) == expected)
    }

    @Test("A record joins its fields with commas and ends with CRLF")
    func record() {
        #expect(CSV.record(["workout", "a,b", "", "x\"y"]) == "workout,\"a,b\",,\"x\"\"y\"\r\n")
    }
}
