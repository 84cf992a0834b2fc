internal import COpenSSL

/// A TLS failure: what was being done, and OpenSSL's reasons (its error queue, oldest first).
package struct TLSError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words for a log or a person: "TLS handshake failed: wrong version number".
    package var message: String

    /// Makes an error with `message`.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }

    /// An error for `operation`, with the reasons OpenSSL queued on this thread (and the queue cleared).
    ///
    /// - Parameter operation: What failed, e.g. "TLS handshake failed".
    static func drainingQueue(_ operation: String) -> TLSError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if let reason = ERR_reason_error_string(code) {
                let text = String(cString: reason)
                if !reasons.contains(text) { reasons.append(text) }
            } else {
                reasons.append("error \(code)")
            }
        }
        return TLSError(reasons.isEmpty ? operation : "\(operation): \(reasons.joined(separator: "; "))")
    }
}
