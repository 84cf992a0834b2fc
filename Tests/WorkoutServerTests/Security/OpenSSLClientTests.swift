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
