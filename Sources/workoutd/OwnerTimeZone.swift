import Foundation
import WorkoutRules

/// The owner's time zone for `workoutd create-owner`: `--time-zone`, else asked on the terminal
/// with this machine's zone as the default, else (no terminal) this machine's zone.
///
/// A name the server does not take is refused with the nearest it does take ("did you mean
/// Europe/Berlin?"), on the terminal (which asks again) and for the option alike.
enum OwnerTimeZone {
    /// Where the question is asked: the terminal, or a fake in tests.
    protocol Terminal {
        /// Writes `text` (a prompt or a remark) without a newline of its own.
        func write(_ text: String)
        /// Reads one line without its line ending, or `nil` at the end of input.
        func readLine() -> String?
    }

    /// The process's terminal: prompts on standard error, answers from standard input.
    struct ProcessTerminal: Terminal {
        /// Writes `text` to standard error.
        func write(_ text: String) {
            FileHandle.standardError.write(Data(text.utf8))
        }

        /// Reads a line of standard input.
        func readLine() -> String? {
            Swift.readLine(strippingNewline: true)
        }
    }

    /// Asks for the zone until the answer names one the server takes; an empty answer takes
    /// `defaultZone`.
    ///
    /// - Parameters:
    ///   - terminal: Where to ask.
    ///   - defaultZone: The answer an empty line gives (this machine's zone).
    /// - Returns: The zone's IANA name.
    /// - Throws: ``CommandFailure`` (bad input) when input ends before an answer.
    static func ask(on terminal: some Terminal, defaultZone: String) throws -> String {
        while true {
            terminal.write("Time zone of the owner [\(defaultZone)]: ")
            guard let line = terminal.readLine() else {
                terminal.write("\n")
                throw CommandFailure(.badInput, "standard input ended before a time zone was entered; pass --time-zone")
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty { return defaultZone }
            if TimeZoneCatalog.isKnown(answer) { return answer }
            terminal.write(refusal(answer, named: "the time zone") + "\n")
        }
    }

    /// Why a name is not taken, and the nearest one that is.
    ///
    /// - Parameters:
    ///   - name: The name typed.
    ///   - option: What it was typed as, e.g. `--time-zone`.
    /// - Returns: E.g. `--time-zone must be an IANA time zone this server knows, such as
    ///   Europe/Berlin (got "Europe/Berln"); did you mean Europe/Berlin?`
    static func refusal(_ name: String, named option: String) -> String {
        var text = "\(option) must be an IANA time zone this server knows, such as Europe/Berlin (got \"\(name)\")"
        if let nearest = suggestion(for: name) { text += "; did you mean \(nearest)?" }
        return text
    }

    /// The known zone nearest to `name`: by edit distance, ignoring case, to the whole name or
    /// to its place (`Berlin` for `Europe/Berlin`); `nil` when none is near (more than a third
    /// of the name, at least 2, would have to change).
    ///
    /// - Parameter name: A name the catalog does not take.
    static func suggestion(for name: String) -> String? {
        let typed = name.lowercased()
        guard !typed.isEmpty, typed.count <= TimeZoneCatalog.maximumNameBytes else { return nil }
        var best: (name: String, distance: Int)?
        for known in TimeZone.knownTimeZoneIdentifiers where TimeZoneCatalog.isKnown(known) {
            let lowered = known.lowercased()
            let place = lowered.split(separator: "/").last.map(String.init) ?? lowered
            let distance = min(editDistance(typed, lowered), editDistance(typed, place))
            if distance < best?.distance ?? .max { best = (known, distance) }
        }
        guard let best, best.distance <= max(2, typed.count / 3) else { return nil }
        return best.name
    }

    /// The Levenshtein distance between two words: insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            current.reserveCapacity(b.count + 1)
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
