/// Writing CSV as RFC 4180 says: fields separated by commas, records ended by CRLF, a field
/// quoted when it holds a comma, a double quote, CR or LF (or starts or ends with a space),
/// a double quote inside a quoted field written twice.
enum CSV {
    /// One field, quoted when needed.
    static func field(_ value: String) -> String {
        let needsQuotes = value.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
            || value.hasPrefix(" ") || value.hasSuffix(" ")
        guard needsQuotes else { return value }
        var quoted = "\""
        for character in value {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }

    /// One record, with its CRLF.
    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}
