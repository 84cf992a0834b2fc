import Foundation

/// Where commands write: results to standard output, messages to standard error, JSON
/// encoded one way everywhere.
///
/// Standard output is written unbuffered, line by line, so `workout watch` shows each
/// change at once even into a pipe.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `lines` to standard output, one per line.
    static func lines(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error.
    static func message(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The encoder of `--json`: ISO 8601 dates, sorted keys, pretty printed (or one line,
    /// for JSON lines).
    ///
    /// - Parameter pretty: Indented over several lines (`--json`), or one line (`watch --json`).
    static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The export's encoder: as ``encoder(pretty:)``, but an instant with milliseconds keeps
    /// them (`2025-06-01T05:30:00.123Z`), so `workout import` of the file gives back the very
    /// same instants; whole seconds are written as everywhere else.
    static func exportEncoder() -> JSONEncoder {
        let encoder = encoder(pretty: true)
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Format.instant(date))
        }
        return encoder
    }

    /// `value` as JSON text.
    ///
    /// - Parameters:
    ///   - value: A value type of the client library, or a report of the CLI's.
    ///   - pretty: Indented, or on one line.
    /// - Throws: ``CLIError`` if it cannot be encoded (a non-finite number).
    static func json(_ value: some Encodable, pretty: Bool = true) throws(CLIError) -> String {
        do {
            return String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
        } catch {
            throw CLIError(.failure, "cannot encode the answer as JSON: \(error)")
        }
    }

    /// Writes `value` as pretty JSON to standard output.
    static func printJSON(_ value: some Encodable) throws(CLIError) {
        line(try json(value))
    }
}
