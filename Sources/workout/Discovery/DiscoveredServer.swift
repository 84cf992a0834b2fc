import Foundation

/// A Workout server that Avahi found on the local network (`_workout._tcp`).
struct DiscoveredServer: Sendable, Hashable, Encodable {
    /// The service's name, e.g. `Workout on nas`.
    var name: String
    /// The host's mDNS name, e.g. `nas.local`.
    var host: String
    /// The address it resolved to.
    var address: String
    /// The advertised port.
    var port: Int
    /// The network interface it was seen on.
    var interface: String
    /// `IPv4` or `IPv6`.
    var family: String

    /// What to pass to `--server`: `nas.local:7420`.
    var server: String { "\(host):\(port)" }

    /// The services in `avahi-browse --resolve --terminate --parsable` output: one per resolved
    /// (`=`) line of type `_workout._tcp`, each service once, IPv4 addresses before IPv6, in the
    /// order found.
    ///
    /// A resolved line is `=;IFACE;PROTO;NAME;TYPE;DOMAIN;HOSTNAME;ADDRESS;PORT;TXT`; avahi
    /// escapes `;`, `\` and non-printable bytes in the fields as `\DDD` (decimal), e.g.
    /// `Workout\032on\032nas`.
    static func parse(avahiBrowseOutput output: String) -> [DiscoveredServer] {
        var found: [DiscoveredServer] = []
        for line in output.split(whereSeparator: \.isNewline) where line.hasPrefix("=;") {
            let fields = splitFields(String(line))
            guard fields.count >= 9, fields[4] == "_workout._tcp", let port = Int(fields[8]), (1...65535).contains(port) else { continue }
            found.append(DiscoveredServer(
                name: fields[3], host: fields[6], address: fields[7], port: port, interface: fields[1], family: fields[2]))
        }
        let ordered = found.filter { $0.family == "IPv4" } + found.filter { $0.family != "IPv4" }
        var seen = Set<String>()
        return ordered.filter { seen.insert("\($0.name)|\($0.host)|\($0.port)").inserted }
    }

    /// Splits on unescaped `;` and decodes `\DDD` escapes.
    private static func splitFields(_ line: String) -> [String] {
        var fields: [String] = []
        var current: [UInt8] = []
        let bytes = Array(line.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), let value = decimal(bytes[(index + 1)..<min(index + 4, bytes.count)]) {
                current.append(value)
                index += 4
                continue
            }
            if byte == UInt8(ascii: ";") {
                fields.append(String(decoding: current, as: UTF8.self))
                current = []
            } else {
                current.append(byte)
            }
            index += 1
        }
        fields.append(String(decoding: current, as: UTF8.self))
        return fields
    }

    /// Three decimal digits as a byte, or `nil`.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return UInt8(exactly: digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
    }
}
