import ArgumentParser
import Testing
import WorkoutClient
@testable import workout

/// `--day`: a date, today or yesterday.
@Suite("Day arguments (--day)")
struct DayArgumentTests {
    static let today = LocalDate(year: 2025, month: 3, day: 1)!

    @Test("Dates, today and yesterday", arguments: [
        ("2025-06-01", LocalDate(year: 2025, month: 6, day: 1)!),
        ("today", today),
        ("Yesterday", LocalDate(year: 2025, month: 2, day: 28)!),
        ("2024-02-29", LocalDate(year: 2024, month: 2, day: 29)!),
    ])
    func accepted(text: String, expected: LocalDate) throws {
        #expect(try DayArgument(parsing: text).resolve(today: Self.today) == expected)
    }

    @Test("Anything else is refused", arguments: ["", "2025-6-1", "2025-02-29", "tomorrow", "01.06.2025", "+12025-01-01"])
    func refused(text: String) {
        #expect(throws: ValidationError.self) { try DayArgument(parsing: text) }
    }
}
