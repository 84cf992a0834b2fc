/// Strong entity tags and `If-None-Match`.
package enum EntityTag {
    /// The first 16 bytes of `digest` in hex, quoted.
    package static func quoted(_ digest: some Sequence<UInt8>) -> String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\"")]
        for byte in digest.prefix(16) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        text.append(UInt8(ascii: "\""))
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether an `If-None-Match` list names `tag` (or is `*`); a weak `W/` tag matches its
    /// strong form, as RFC 9110's weak comparison for If-None-Match says.
    package static func matches(_ list: String, _ tag: String) -> Bool {
        list.split(separator: ",").contains { item in
            let candidate = item.trimmingSpaces
            return candidate == "*" || candidate == tag || candidate == "W/" + tag
        }
    }
}
