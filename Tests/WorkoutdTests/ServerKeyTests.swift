import Foundation
import ProcessTestSupport
import Testing
import TestSupport
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The server's TLS key as the operator meets it: made on the first start, printed, shown by
/// `workoutd fingerprint`, seen by `openssl s_client`, replaced by `workoutd rotate-key`.
@Suite("workoutd's TLS key")
struct ServerKeyTests {
    /// Reads `server`'s output (after its banner) until a line starting with `prefix`, for at most 30 s.
    static func line(startingWith prefix: String, from server: ServeProcess) -> String? {
        var text = server.banner
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            let chunk = server.output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return nil
    }

    /// The SHA-256 of the public key of the certificate `openssl s_client` gets from `port`, hex.
    static func sClientKeyDigest(port: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", """
            timeout 20 openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null \
            | openssl x509 -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -r
            """]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    @Test("serve makes a key on first start and prints its fingerprint; fingerprint prints the same; s_client sees that key; rotate-key replaces it")
    func keyLifecycle() async throws {
        // Off the cooperative pool: the test waits for workoutd processes.
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let server = try ServeProcess(dataDirectory: data, transport: "tls")
                let printed = try #require(Self.line(startingWith: "TLS key fingerprint: ", from: server), "serve: \(server.banner)")
                let fingerprint = try #require(KeyFingerprint(printed.dropFirst("TLS key fingerprint: ".count)), "\(printed)")
                #expect(try Self.sClientKeyDigest(port: server.port) == fingerprint.hex.replacingOccurrences(of: ":", with: ""))
                let shown = try WorkoutdProcess.run(["fingerprint", "--data-dir", data])
                #expect(shown.status == 0 && shown.output.trimmingCharacters(in: .whitespacesAndNewlines) == fingerprint.description, "\(shown)")
                server.stop()

                var status = stat()
                #expect(stat(data + "/identity/key.pem", &status) == 0 && status.st_mode & 0o777 == 0o600)
                let rotated = try WorkoutdProcess.run(["rotate-key", "--data-dir", data])
                #expect(rotated.status == 0, "\(rotated)")
                #expect(rotated.output.contains("old key fingerprint: \(fingerprint)"), "\(rotated)")
                let after = try WorkoutdProcess.run(["fingerprint", "--data-dir", data])
                let new = try #require(KeyFingerprint(after.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(after)")
                #expect(new != fingerprint)
                #expect(rotated.output.contains("new key fingerprint: \(new)"), "\(rotated)")
            }
        }
    }

    @Test("fingerprint without a key yet says how one is made, and fails")
    func noKeyYet() async throws {
        // Off the cooperative pool: the test waits for workoutd processes.
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let result = try WorkoutdProcess.run(["fingerprint", "--data-dir", data])
                #expect(result.status != 0)
                #expect(result.error.contains("workoutd serve"), "\(result)")
            }
        }
    }
}
