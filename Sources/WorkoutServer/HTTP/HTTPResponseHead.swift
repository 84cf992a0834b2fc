package import HTTPTypes

/// Writes an HTTP/1.1 response's head: the status line and header fields, then the blank line.
package enum HTTPResponseHead {
    /// Appends the head of a response with `status` and `fields`, whose body is `contentLength`
    /// bytes long (or chunked when `nil`), and which keeps the connection (or closes it).
    package static func write(
        _ status: HTTPResponse.Status, _ fields: HTTPFields, contentLength: Int?, keepAlive: Bool, to bytes: inout [UInt8]
    ) {
        writeStatusAndFields(status, fields, to: &bytes)
        if let contentLength {
            bytes.append(contentsOf: "Content-Length: \(contentLength)\r\n".utf8)
        } else {
            bytes.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        }
        if !keepAlive { bytes.append(contentsOf: "Connection: close\r\n".utf8) }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    /// Appends the head of a `304 Not Modified`, which has no body and so says no length.
    package static func writeNotModified(_ fields: HTTPFields, keepAlive: Bool, to bytes: inout [UInt8]) {
        writeStatusAndFields(.notModified, fields, to: &bytes)
        if !keepAlive { bytes.append(contentsOf: "Connection: close\r\n".utf8) }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    private static func writeStatusAndFields(_ status: HTTPResponse.Status, _ fields: HTTPFields, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n".utf8)
        for field in fields {
            bytes.append(contentsOf: field.name.rawName.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
    }

    /// Appends one chunk of a chunked body (an empty `data` is the last chunk).
    package static func writeChunk(_ data: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(data.count, radix: 16).utf8)
        bytes.append(contentsOf: "\r\n".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: "\r\n".utf8)
    }
}
