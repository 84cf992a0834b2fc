/// Negative numbers typed as arguments (`workout log steps -5`), made to reach the command.
///
/// ArgumentParser reads every input that begins with `-` as an option, so `-5` would be an
/// unknown option and the command would miss its number ("Missing expected argument"); the
/// number never reaches the command's own check, which says what is wrong with it. An
/// option's value is taken whatever it looks like where the option says
/// `parsing: .unconditional` (`--calories -200`); a positional argument has no such setting
/// (apple/swift-argument-parser issue 31), only the `--` that ends the options. So before
/// parsing, a negative number that follows a value (a command's name, another argument, an
/// option's value) moves behind a `--`, keeping its order among the arguments there.
///
/// `workout` has no option named by a digit, so `-5` is never an option of its own. A
/// negative number right after an option is left where it is at first: it is that option's
/// value (`--calories -200`). Only when that line does not parse is it tried with those moved
/// too, for a number that follows a flag (`log steps --json -5`).
enum NegativeNumbers {
    /// The arguments with each negative number that follows a value moved behind `--`.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program's name.
    ///   - afterOptions: Whether a negative number right after an option or flag moves too.
    /// - Returns: The same arguments when there is nothing to move; else the others in their
    ///   order, then `--`, then the moved numbers followed by what came after a `--` already.
    static func arranged(_ arguments: [String], afterOptions: Bool = false) -> [String] {
        var options: [String] = []
        var moved: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if isNegativeNumber(argument), index > 0, afterOptions || !arguments[index - 1].hasPrefix("-") {
                moved.append(argument)
            } else {
                options.append(argument)
            }
            index += 1
        }
        guard !moved.isEmpty else { return arguments }
        let afterTerminator = index < arguments.count ? arguments[(index + 1)...] : []
        return options + ["--"] + moved + afterTerminator
    }

    /// Whether `text` is a negative decimal number: `-5`, `-72.4`, `-.5`.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let digits = text.dropFirst()
        var sawDigit = false
        var sawPoint = false
        for character in digits {
            if character.isASCII, character.isNumber {
                sawDigit = true
            } else if character == ".", !sawPoint {
                sawPoint = true
            } else {
                return false
            }
        }
        return sawDigit
    }
}
