import Foundation
import WorkoutClient
import WorkoutRules

/// The server's bounds on a record's fields, checked before a write is sent or queued, and
/// said in the words the person typed: the option's own name and unit ("--minutes must be at
/// most 1,440 (24 hours)"), times as dates, never a wire field or milliseconds since 1970.
///
/// The bounds are the ones the server checks (`RecordLimits`, `Bounds` in WorkoutRules), so
/// the two cannot drift apart; a write the server would refuse is refused here, before it
/// could wait in the outbox. Each check throws ``CLIError`` as the server's refusal would
/// come out (exit 65, "invalid input: …"), so scripts see one exit code for a value out of
/// bounds whoever finds it. Commands check at the start of `run()`: ArgumentParser would
/// report an error thrown from `validate()` as a failure of its own.
enum InputBounds {
    /// Checks a duration in minutes (`--minutes`): above 0, at most a day.
    ///
    /// - Parameter minutes: What was typed.
    /// - Throws: ``CLIError`` (invalid input) naming the option and the bound.
    static func minutes(_ minutes: Double) throws(CLIError) {
        let option = "--minutes"
        let seconds = RecordLimits.workoutDurationSeconds
        guard minutes.isFinite, minutes > 0 else {
            throw refusal("\(option) must be a number above 0 (got \(Format.number(minutes, decimals: 3)))")
        }
        let most = seconds.upperBound / 60
        guard minutes * 60 <= Double(seconds.upperBound) else {
            throw refusal("\(option) must be at most \(Format.grouped(most)) (\(most / 60) hours); got \(Format.number(minutes, decimals: 2))")
        }
        guard (minutes * 60).rounded() >= Double(seconds.lowerBound) else {
            throw refusal("\(option) must be at least a second (\(Format.number(1 / 60, decimals: 3)) minutes)")
        }
    }

    /// Checks a number against a range, in the option's unit: `--calories must be between 0
    /// and 20,000 kcal (got -200)`.
    ///
    /// - Parameters:
    ///   - value: What was typed.
    ///   - name: The option or argument, as the message starts: `--calories`, `the weight`.
    ///   - range: The bounds.
    ///   - unit: The unit after the bound, e.g. ` kcal` (with its space), or empty.
    /// - Throws: ``CLIError`` (invalid input) naming the option and the bound.
    static func number(_ value: Double, _ name: String, _ range: ClosedRange<Double>, unit: String = "") throws(CLIError) {
        guard value.isFinite, range.contains(value) else {
            throw refusal("\(name) must be between \(amount(range.lowerBound)) and \(amount(range.upperBound))\(unit) (got \(Format.number(value, decimals: 2)))")
        }
    }

    /// Checks a whole number against a range: `the number of steps must be between 0 and
    /// 200,000 (got -5)`.
    ///
    /// - Parameters:
    ///   - value: What was typed.
    ///   - name: The option or argument, as the message starts.
    ///   - range: The bounds.
    /// - Throws: ``CLIError`` (invalid input) naming the option and the bound.
    static func integer(_ value: Int, _ name: String, _ range: ClosedRange<Int>) throws(CLIError) {
        guard range.contains(value) else {
            throw refusal("\(name) must be between \(Format.grouped(range.lowerBound)) and \(Format.grouped(range.upperBound)) (got \(Format.grouped(value)))")
        }
    }

    /// Checks a text's length in bytes of UTF-8, as the wire counts it.
    ///
    /// - Parameters:
    ///   - text: What was typed.
    ///   - name: The option or argument, as the message starts.
    ///   - bytes: The allowed length.
    /// - Throws: ``CLIError`` (invalid input) naming the option and the bound.
    static func text(_ text: String, _ name: String, bytes: ClosedRange<Int>) throws(CLIError) {
        let count = text.utf8.count
        guard bytes.contains(count) else {
            let bound = bytes.lowerBound == 0 ? "at most \(Format.grouped(bytes.upperBound))"
                : "\(Format.grouped(bytes.lowerBound)) to \(Format.grouped(bytes.upperBound))"
            throw refusal("\(name) must be \(bound) bytes long (got \(Format.grouped(count)))")
        }
    }

    /// Checks a time (`--at`): from 2000-01-01 to no more than a day ahead of now, the times
    /// the server takes (its own clock decides in the end).
    ///
    /// - Parameters:
    ///   - time: What was typed.
    ///   - now: The current time.
    ///   - zone: The zone the time was meant in, for the message.
    /// - Throws: ``CLIError`` (invalid input) naming the option, in dates.
    static func time(_ time: TimeArgument, now: Date, in zone: TimeZone) throws(CLIError) {
        let option = "--at"
        let date = time.resolve(now: now, in: zone)
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let earliest = Date(timeIntervalSince1970: Double(Bounds.earliestEventTime) / 1000)
        guard milliseconds >= Double(Bounds.earliestEventTime) else {
            throw refusal("\(option) must be on or after \(Format.day(earliest, in: TimeZone(identifier: "UTC")!)) (got \(Format.dateTime(date, in: zone)))")
        }
        guard milliseconds <= (now.timeIntervalSince1970 * 1000).rounded() + Double(Bounds.eventTimeLeeway) else {
            throw refusal("\(option) must be no more than a day ahead (got \(Format.dateTime(date, in: zone)))")
        }
    }

    // MARK: A new password

    /// The rule for a new password, as help texts and messages say it: the server's.
    static let newPasswordRule =
        "\(Bounds.newPasswordBytes.lowerBound) to \(Bounds.newPasswordBytes.upperBound) bytes long"

    /// Checks a new password before it is sent, with the server's rule and the message its
    /// refusal gets (exit 65, invalid input), so no round trip is spent on it.
    ///
    /// - Parameter password: The new password (never echoed).
    /// - Throws: ``CLIError`` (invalid input) when its length breaks the rule.
    static func newPassword(_ password: String) throws(CLIError) {
        guard Bounds.newPasswordBytes.contains(password.utf8.count) else {
            throw CLIError(.invalidInput, "invalid input: the new password must be \(newPasswordRule); nothing was changed")
        }
    }

    // MARK: Joining

    /// Checks the code of `--invite` (its part before any `@`) for the form codes have:
    /// letters and digits in groups, 1 to 64 bytes, as `workoutd invite` prints them
    /// (`7KQ2-M9XD-4HPA-W3RT`). Whether the server knows the code, only the server can say.
    ///
    /// - Parameter code: The code.
    /// - Throws: ``CLIError`` (usage) for anything else, e.g. an email pasted in its place.
    static func inviteCode(_ code: String) throws(CLIError) {
        let allowed = code.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == " ") }
        guard (1...64).contains(code.utf8.count), allowed, code.contains(where: { $0 != "-" && $0 != " " }) else {
            throw CLIError(.usage, "--invite must be the code an admin gave you, letters and digits such as 7KQ2-M9XD-4HPA-W3RT (optionally @ and the server's fingerprint)")
        }
    }

    /// Checks `--email` with the server's rule for addresses, the message naming the option.
    ///
    /// - Parameter email: The address typed.
    /// - Throws: ``CLIError`` (invalid input), e.g. "--email must contain exactly one '@' (got 0)".
    static func email(_ email: String) throws(CLIError) {
        do {
            _ = try Bounds.email(email, field: "--email")
        } catch {
            throw refusal(error.message)
        }
    }

    // MARK: The fields, by the record they belong to

    /// Checks `--calories` of a workout.
    static func workoutCalories(_ kcal: Double) throws(CLIError) {
        try number(kcal, "--calories", RecordLimits.workoutCalories, unit: " kcal")
    }

    /// Checks `--exercises` of a workout.
    static func exercises(_ count: Int) throws(CLIError) {
        try integer(count, "--exercises", RecordLimits.workoutExercises)
    }

    /// Checks a workout's kind and notes.
    ///
    /// - Parameter typeName: How the kind was given: the argument (`the kind of workout`) or `--type`.
    static func workoutText(type: String?, typeName: String, notes: String?) throws(CLIError) {
        if let type { try text(type, typeName, bytes: RecordLimits.workoutTypeBytes) }
        if let notes { try text(notes, "--notes", bytes: RecordLimits.workoutNotesBytes) }
    }

    /// Checks a weigh-in's weight, named as typed (`the weight`, `--weight`).
    static func weight(_ kg: Double, _ name: String) throws(CLIError) {
        try number(kg, name, RecordLimits.weightKg, unit: " kg")
    }

    /// Checks a weigh-in's `--note`.
    static func weightNote(_ note: String) throws(CLIError) {
        try text(note, "--note", bytes: RecordLimits.weightNoteBytes)
    }

    /// Checks a day's step count and its `--source`.
    static func steps(_ steps: Int, source: String) throws(CLIError) {
        try integer(steps, "the number of steps", RecordLimits.stepsPerDay)
        try text(source, "--source", bytes: RecordLimits.stepsSourceBytes)
    }

    /// Checks a meal's `--name` and `--item`s: how many, each one's name and figures.
    static func meal(name: String?, items: [FoodItem]) throws(CLIError) {
        if let name { try text(name, "--name", bytes: RecordLimits.mealNameBytes) }
        guard items.count <= RecordLimits.mealItemsMax else {
            throw refusal("a meal holds at most \(RecordLimits.mealItemsMax) items (got \(items.count) --item)")
        }
        for (index, item) in items.enumerated() {
            let name = "--item #\(index + 1)"
            try text(item.name, "\(name)'s name", bytes: RecordLimits.foodNameBytes)
            try number(item.calories, "\(name)'s calories", RecordLimits.foodCalories, unit: " kcal")
            for (label, grams) in [("protein", item.proteinG), ("carbs", item.carbsG), ("fat", item.fatG)] {
                try number(grams, "\(name)'s \(label)", RecordLimits.foodGrams, unit: " g")
            }
        }
    }

    /// The refusal of a value out of bounds.
    private static func refusal(_ message: String) -> CLIError {
        CLIError(.invalidInput, "invalid input: " + message)
    }

    /// A bound as people write it: `20,000`, `0.01`.
    private static func amount(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? Format.grouped(Int(value)) : Format.number(value, decimals: 2)
    }
}
