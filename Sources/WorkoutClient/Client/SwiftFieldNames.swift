// The server names a field at fault by its path in the request message, as PROTOCOL.md does
// (`workout.duration_seconds`, `meal.items[3].protein_g`, `since_revision`). An app called a
// Swift method with Swift values; it gets the same path in those terms: the argument, then the
// property path in it (`workout.durationSeconds`, `meal.items[3].proteinG`, `since`).
//
// Most components follow one rule: snake_case to lowerCamelCase, a `_ms` suffix dropped (the
// Swift value is a `Date`). The exceptions are listed: components whose Swift property has
// another name, and the top-level fields of the requests whose Swift method takes them in one
// value (`updateProfile(_ update:)`, `register(…member:…)`).

/// Translates a request field's wire path into the terms of the Swift call that sent it.
enum SwiftFieldNames {
    /// Components whose Swift name is not their lowerCamelCase form.
    static let renamedComponents: [String: String] = [
        "workout_type": "type",
        "weight_entry": "weight",
        "user_id": "id",
        "achievement_id": "id",
        "since_revision": "since",
        "from_day": "from",
        "to_day": "to",
        "current_password": "current",
        "new_password": "new",
        "expires_in_seconds": "expiresIn",
        "effective_from": "from",
        "member_id": "member",
        "clear": "clearing",
    ]

    /// What the top-level fields of a method's request are inside, in its Swift call: the
    /// request's first component replaced (`profile` of `Auth.Register` is the `member`
    /// argument), or every top-level field put under an argument (`Profile.UpdateProfile`'s
    /// fields are the `update` argument's properties).
    static let methodArguments: [String: (replacing: String?, with: String)] = [
        "Profile.UpdateProfile": (nil, "update"),
        "Auth.Register": ("profile", "member"),
        "Goals.SetGoals": ("set", "goals"),
    ]

    /// The Swift path of a wire field path.
    ///
    /// - Parameters:
    ///   - wirePath: The field's path in the request, e.g. `meal.items[3].protein_g`.
    ///   - method: The method's catalog name, e.g. `Logging.LogMeal`.
    /// - Returns: E.g. `meal.items[3].proteinG`.
    static func swiftPath(of wirePath: String, method: String) -> String {
        var components = wirePath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.isEmpty else { return wirePath }
        components = components.map(swiftComponent)
        if let argument = methodArguments[method] {
            if let replaced = argument.replacing {
                if components[0] == replaced { components[0] = argument.with }
            } else {
                components.insert(argument.with, at: 0)
            }
        }
        return components.joined(separator: ".")
    }

    /// One component, with its index kept: `items[3]` stays, `protein_g` becomes `proteinG`.
    static func swiftComponent(_ component: String) -> String {
        let name: Substring
        let index: Substring
        if let bracket = component.firstIndex(of: "[") {
            name = component[..<bracket]
            index = component[bracket...]
        } else {
            name = Substring(component)
            index = ""
        }
        if let renamed = renamedComponents[String(name)] { return renamed + index }
        var words = name.split(separator: "_").map(String.init)
        if words.count > 1, words.last == "ms" { words.removeLast() }
        guard let first = words.first else { return component }
        return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + index
    }

    /// `text` with each whole occurrence of `word` replaced: one not inside a longer name (no
    /// letter, digit, `_`, `.` or `[` on either side), so `time_zone` is replaced in
    /// "time_zone must be …" but not in "workout.time_zone".
    ///
    /// - Parameters:
    ///   - word: What to replace.
    ///   - replacement: What to put instead.
    ///   - text: The text.
    /// - Returns: The text with the replacements.
    static func replacingWholeOccurrences(of word: String, with replacement: String, in text: String) -> String {
        guard !word.isEmpty, word != replacement, text.contains(word) else { return text }
        func isNamePart(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_" || character == "." || character == "["
        }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: word) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            // A trailing "." ends a sentence; only ".x" continues a path.
            let continues = after.map { $0 == "." ? rest[range.upperBound...].dropFirst().first.map(isNamePart) ?? false : isNamePart($0) } ?? false
            result += rest[..<range.lowerBound]
            result += (before.map(isNamePart) ?? false) || continues ? word : replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
