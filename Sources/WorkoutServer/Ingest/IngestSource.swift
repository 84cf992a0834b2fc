import Foundation

/// The source a phone app names for a record (a device, an app), as the server keeps it.
enum IngestSource {
    /// `written` without surrounding spaces, control or format characters, cut to 64 bytes
    /// (the server's bound for a steps source); `fallback` when nothing is left.
    static func name(_ written: String?, otherwise fallback: String) -> String {
        var name = written?.trimmingCharacters(in: .whitespaces) ?? ""
        name.unicodeScalars.removeAll { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
        if name.isEmpty { name = fallback }
        while name.utf8.count > 64 { name.removeLast() }
        return name
    }
}
