/// Where a Workout server listens: a host name or IP literal and a TCP port.
///
/// Written `host:port`, `[v6]:port`, or just `host` for the default port 7420.
public struct ServerAddress: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// The port `workoutd` listens on unless told otherwise.
    public static let defaultPort = 7420

    /// A host name, or an IPv4/IPv6 literal (without brackets).
    public var host: String
    /// The TCP port, 1 through 65535.
    public var port: Int

    /// Makes an address.
    ///
    /// - Parameters:
    ///   - host: A host name or IP literal.
    ///   - port: The TCP port.
    public init(host: String, port: Int = ServerAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `host`, `host:port`, `[v6]` or `[v6]:port`; `nil` when malformed or the
    /// port is not 1 through 65535.
    public init?(_ description: String) {
        var text = Substring(description.trimmingWhitespace())
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            text = text[text.index(after: close)...]
            if !text.isEmpty {
                guard text.hasPrefix(":") else { return nil }
                portText = text.dropFirst()
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text  // a bare name, IPv4 literal, or unbracketed IPv6 literal
        }
        guard !host.isEmpty, host.utf8.count <= 253, !host.contains(where: \.isWhitespace) else { return nil }
        var port = Self.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else { return nil }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 literal.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> Substring {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
