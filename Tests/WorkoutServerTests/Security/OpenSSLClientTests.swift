import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutServer

/// The server's TLS seen by another implementation: the `openssl` command (Debian's `openssl`).
@Suite("TLS with openssl s_client")
struct OpenSSLClientTests {
    @Test("openssl s_client completes a handshake and sees the certificate whose key fingerprint the server prints")
    func sClientSeesTheFingerprint() async throws {
        let (identity, _) = try ServerIdentity.generate()
        let context = try identity.makeTLSContext()
        try await withServer(configure: { $0.tls = context }) { _, _, port in
            // s_client ends at the end of its standard input, after the handshake; `timeout`
            // bounds it should anything hang.
            let script = """
                timeout 20 openssl s_client -connect 127.0.0.1:\(port) -tls1_3 </dev/null 2>/dev/null \
                | tee /dev/stderr | openssl x509 -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -r
                """
            let output = try await blocking { try Self.shell(script) }
            let digest = output.split(separator: " ").first.map(String.init) ?? ""
            #expect(digest == identity.fingerprint.hex.replacingOccurrences(of: ":", with: ""), "openssl printed: \(output)")
        }
    }

    @Test("A client resumes no session, by ticket or by session ID, over TLS 1.2 or TLS 1.3", arguments: ["-tls1_2", "-tls1_3"])
    func noSessionResumes(version: String) async throws {
        let (identity, _) = try ServerIdentity.generate()
        let context = try identity.makeTLSContext()
        try await withTemporaryDirectory { directory in
            let session = directory + "/session.pem"
            try await withServer(configure: { $0.tls = context }) { _, _, port in
                // The first connection saves what it could resume with; the second offers it.
                // s_client says "New, …" for a full handshake and "Reused, …" for a resumed one.
                let script = """
                    timeout 20 openssl s_client -connect 127.0.0.1:\(port) \(version) -sess_out \(session) </dev/null 2>/dev/null \
                    | grep -E '^(New|Reused),|TLS session ticket:|Session-ID:'
                    echo ---
                    if [ -s \(session) ]; then
                      timeout 20 openssl s_client -connect 127.0.0.1:\(port) \(version) -sess_in \(session) </dev/null 2>/dev/null \
                      | grep -E '^(New|Reused),'
                    else
                      echo "nothing to resume with"
                    fi
                    """
                let output = try await blocking { try Self.shell(script) }
                let halves = output.components(separatedBy: "---")
                let (first, second) = (halves.first ?? "", halves.last ?? "")
                #expect(first.contains("New,"), "openssl printed: \(output)")
                #expect(!first.contains("TLS session ticket:"), "no ticket was issued; openssl printed: \(output)")
                if version == "-tls1_2" {
                    // A server that keeps no session cache answers with an empty session ID.
                    let sessionID = first.split(separator: "\n").first { $0.contains("Session-ID:") }
                    #expect(sessionID?.trimmingCharacters(in: .whitespaces) == "Session-ID:", "openssl printed: \(output)")
                }
                // s_client saves no session it could not resume; one it saved must not resume.
                #expect(second.contains("New,") || second.contains("nothing to resume with"), "openssl printed: \(output)")
                #expect(!second.contains("Reused,"), "openssl printed: \(output)")
            }
        }
    }

    /// Runs `script` with /bin/sh; its standard output.
    static func shell(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
