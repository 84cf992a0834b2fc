import ArgumentParser

/// A command name `workout` does not know, said as such before ArgumentParser parses.
///
/// ArgumentParser reads an unknown word after a command group as an unexpected argument and
/// may blame something else the line holds (`workout log run --minutes 30` reports
/// `--minutes`); it never suggests the name meant. The words that name commands are walked
/// here from the root: the first that is no subcommand of its group is reported, with the
/// nearest name when one is close (`lgo`: `log`). Under `workout log`, whose subcommands are
/// kinds of record, an unknown word is most likely a kind of workout, so the whole line is
/// suggested with `workout` put before it.
enum UnknownCommand {
    /// The message for the first unknown command name in `arguments`, or `nil`.
    ///
    /// A group with a default subcommand (`profile` shows the profile) passes other words on
    /// to it, so there a word is reported only when it is close to a subcommand's name.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program's name.
    ///   - root: The root command.
    /// - Returns: E.g. "unknown command 'lgo'; did you mean `workout log`?", or `nil`.
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var group = root
        var path = [root.configuration.commandName ?? "workout"]
        for (index, word) in arguments.enumerated() {
            let subcommands = group.configuration.subcommands
            guard !word.hasPrefix("-"), !subcommands.isEmpty, word != "help" else { return nil }
            if let next = subcommands.first(where: { names($0).contains(word) }) {
                group = next
                path.append(word)
                continue
            }
            let known = subcommands.compactMap { $0.configuration.commandName }
            let nearest = known.min { distance(word, $0) < distance(word, $1) }.flatMap { distance(word, $0) <= 2 ? $0 : nil }
            let takes = "`\(path.joined(separator: " "))` takes \(list(known))"
            if let nearest {
                return "unknown command '\(word)'; did you mean `\(path.joined(separator: " ")) \(nearest)`? (\(takes))"
            }
            guard group.configuration.defaultSubcommand == nil else { return nil }
            if ObjectIdentifier(group) == ObjectIdentifier(LogCommand.self) {
                let line = (path + ["workout"] + arguments[index...]).joined(separator: " ")
                return "unknown kind '\(word)': \(takes); to log a workout of that kind: \(line)"
            }
            return "unknown command '\(word)': \(takes)"
        }
        return nil
    }

    /// A command's name and aliases.
    private static func names(_ command: any ParsableCommand.Type) -> [String] {
        [command.configuration.commandName].compactMap { $0 } + command.configuration.aliases
    }

    /// `a, b or c`.
    private static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The Levenshtein distance between two words: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
