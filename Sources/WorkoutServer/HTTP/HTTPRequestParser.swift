package import HTTPTypes

/// Cuts HTTP/1.1 requests off the bytes a connection receives: first the head (request line
/// and header fields), then a body of the length the head announced. Pure and bounded: it
/// holds at most the head's limit before the head is whole, and a body only as long as the
/// caller allowed.
///
/// ```
/// POST /workout.v1.LoggingService/LogWeight HTTP/1.1\r\n     request line
/// Host: workout.local:7420\r\n                               header fields, at most
/// Content-Type: application/json\r\n                          `maxHeaderCount`, the head
/// Content-Length: 42\r\n                                      at most `maxHeadBytes`
/// \r\n
/// {"entry": {"weightKg": 71.5, ...}}                         42 bytes of body
/// ```
package struct HTTPRequestParser: Sendable {
    /// The head of a request as received.
    package struct Head: Sendable {
        /// The method, path and header fields.
        package var request: HTTPRequest
        /// 0 for HTTP/1.0, 1 for HTTP/1.1.
        package var minorVersion: Int

        /// Whether the client wants the connection kept after this request: HTTP/1.1 unless
        /// it said `Connection: close`, HTTP/1.0 only if it said `keep-alive`.
        package var keepsAlive: Bool {
            guard request.headerFields.contains(.connection) else { return minorVersion >= 1 }
            let tokens = request.headerFields[values: .connection].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingSpaces.lowercased() }
            return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
        }
    }

    /// The largest head accepted (request line and header fields).
    package let maxHeadBytes: Int
    /// The most header fields accepted.
    package let maxHeaderCount: Int

    private var buffer: [UInt8] = []
    /// Where the search for the head's end resumes (bytes before it were searched).
    private var searchedUpTo = 0
    /// How many bytes of the request line have been checked to be ones a request line can hold.
    private var requestLineCheckedUpTo = 0

    /// A parser with these bounds.
    package init(maxHeadBytes: Int, maxHeaderCount: Int) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
    }

    /// Bytes held that belong to the request being read (or the next ones).
    package var bufferedByteCount: Int { buffer.count }

    /// The capacity held for them.
    package var bufferCapacity: Int { buffer.capacity }

    /// Takes bytes from the connection.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// The next request's head, or `nil` until it is whole.
    ///
    /// - Throws: ``HTTPRequestError`` for a head that is too large, has too many fields, or is
    ///   not HTTP/1.x as RFC 9112 writes it.
    package mutating func nextHead() throws(HTTPRequestError) -> Head? {
        // Empty lines before a request line are ignored (RFC 9112 2.2).
        var start = 0
        while start + 1 < buffer.count, buffer[start] == 0x0D, buffer[start + 1] == 0x0A { start += 2 }
        while start < buffer.count, buffer[start] == 0x0A { start += 1 }
        if start > 0 {
            buffer.removeFirst(start)
            searchedUpTo = max(0, searchedUpTo - start)
        }
        guard let end = headEnd() else {
            try checkRequestLineSoFar()
            if buffer.count > maxHeadBytes {
                throw HTTPRequestError(.requestHeaderFieldsTooLarge, "the request's head (request line and header fields) is larger than \(maxHeadBytes) bytes")
            }
            return nil
        }
        if end.headLength > maxHeadBytes {
            throw HTTPRequestError(.requestHeaderFieldsTooLarge, "the request's head (request line and header fields) is larger than \(maxHeadBytes) bytes")
        }
        let head = try parseHead(buffer[0..<end.headLength])
        buffer.removeFirst(end.consumed)
        searchedUpTo = 0
        requestLineCheckedUpTo = 0
        return head
    }

    /// Refuses at once a request line whose bytes so far no request line can hold (a control
    /// byte, a byte above ASCII, a method that is not a token), instead of waiting for a line
    /// end that a client of another protocol may never send. Each byte is checked once.
    private mutating func checkRequestLineSoFar() throws(HTTPRequestError) {
        var sawSpace = buffer[0..<min(requestLineCheckedUpTo, buffer.count)].contains(0x20)
        var index = requestLineCheckedUpTo
        while index < buffer.count {
            let byte = buffer[index]
            if byte == 0x0A { break }
            let isLineEnd = byte == 0x0D && (index + 1 == buffer.count || buffer[index + 1] == 0x0A)
            if byte == 0x20 {
                sawSpace = true
            } else if !isLineEnd, byte < 0x20 || byte >= 0x7F || (!sawSpace && !Self.isTokenCharacter(byte)) {
                throw HTTPRequestError(.badRequest, "this is not an HTTP request line (byte 0x\(String(byte, radix: 16)) at \(index)): the port speaks HTTP/1.1 or the binary protocol")
            }
            index += 1
        }
        requestLineCheckedUpTo = index
    }

    /// RFC 9110's `tchar`: what a method name is made of.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// The next `count` bytes (a body), or `nil` until they have all arrived.
    package mutating func takeBody(_ count: Int) -> [UInt8]? {
        guard buffer.count >= count else { return nil }
        let body = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return body
    }

    /// Gives back the memory of an empty buffer beyond `keep` bytes.
    package mutating func trim(keeping keep: Int) {
        if buffer.isEmpty, buffer.capacity > keep { buffer = [] }
    }

    /// Where the head ends: its length without the blank line, and with it.
    private mutating func headEnd() -> (headLength: Int, consumed: Int)? {
        var index = max(0, searchedUpTo - 3)
        let limit = min(buffer.count, maxHeadBytes + 4)
        while index < limit {
            if buffer[index] == 0x0A {
                if index + 1 < buffer.count, buffer[index + 1] == 0x0A { return (index + 1, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A { return (index + 1, index + 3) }
            }
            index += 1
        }
        searchedUpTo = limit
        return nil
    }

    private func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Head {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw HTTPRequestError(.badRequest, "the request has no request line") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let methodText = String(validating: parts[0], as: UTF8.self),
              let target = String(validating: parts[1], as: UTF8.self), let version = String(validating: parts[2], as: UTF8.self)
        else { throw HTTPRequestError(.badRequest, "the request line is not \"METHOD /path HTTP/1.1\"") }
        guard version.hasPrefix("HTTP/") else { throw HTTPRequestError(.badRequest, "the request line is not \"METHOD /path HTTP/1.1\"") }
        let minorVersion: Int
        switch version {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        default: throw HTTPRequestError(.httpVersionNotSupported, "\(version.prefix(16)) is not served: this server speaks HTTP/1.1")
        }
        guard let method = HTTPRequest.Method(methodText) else { throw HTTPRequestError(.badRequest, "the request method is not a valid token") }
        guard target.first == "/", target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPRequestError(.badRequest, "the request target must be a path starting with \"/\"")
        }
        guard lines.count - 1 <= maxHeaderCount else {
            throw HTTPRequestError(.requestHeaderFieldsTooLarge, "the request has more than \(maxHeaderCount) header fields")
        }
        var fields = HTTPFields()
        fields.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            guard let first = line.first, first != 0x20, first != 0x09 else {
                throw HTTPRequestError(.badRequest, "a header field is folded over lines, which HTTP/1.1 forbids")
            }
            guard let colon = line.firstIndex(of: 0x3A),
                  let nameText = String(validating: line[line.startIndex..<colon], as: UTF8.self),
                  let name = HTTPField.Name(nameText)
            else { throw HTTPRequestError(.badRequest, "a header field is not \"Name: value\"") }
            var value = line[(colon + 1)...]
            while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
            while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
            guard HTTPField.isValidValue(value) else {
                throw HTTPRequestError(.badRequest, "the value of header field \(nameText) has a character HTTP does not allow")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        let request = HTTPRequest(method: method, scheme: nil, authority: fields[HTTPField.Name("Host")!], path: target, headerFields: fields)
        return Head(request: request, minorVersion: minorVersion)
    }
}

/// A request the face refuses before it reaches a method: the HTTP status and why.
package struct HTTPRequestError: Error, Sendable, Equatable {
    /// The answer's status.
    package var status: HTTPResponse.Status
    /// Why, in the words of the person who sent it.
    package var message: String

    /// A refusal with `status` saying `message`.
    package init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
