import Foundation
import ProcessTestSupport
import Testing
import TestSupport
import WorkoutProtocol

/// The README's curl session against a real `workoutd` over TLS, with Debian's curl pinning
/// the server's key (`workoutd fingerprint --format curl`) instead of trusting a CA.
@Suite("curl against workoutd's HTTP face")
struct CurlTests {
    /// Runs curl with `arguments`; its exit status and standard output.
    static func curl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "20"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("Log in, log a weigh-in and read the week with curl --pinnedpubkey; another key is refused",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "Debian's curl is not installed"))
    func curlSession() async throws {
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let server = try ServeProcess(dataDirectory: data, transport: "tls")
                defer { server.stop() }
                let pin = try WorkoutdProcess.run(["fingerprint", "--data-dir", data, "--format", "curl"]).output
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(pin.hasPrefix("sha256//") && pin.count == 52, "\(pin)")
                let base = "https://127.0.0.1:\(server.port)"
                let common = ["--insecure", "--pinnedpubkey", pin, "-H", "Content-Type: application/json"]

                let login = try Self.curl(common + ["-d", #"{"email": "ada@example.com", "password": "correct horse battery"}"#,
                                                    base + "/workout.v1.AuthService/Login"])
                #expect(login.status == 0, "\(login)")
                struct Login: Decodable { var sessionToken: String }
                let token = try JSONDecoder().decode(Login.self, from: Data(login.output.utf8)).sessionToken
                let bearer = ["-H", "Authorization: Bearer \(token)"]

                let now = Int64(Date().timeIntervalSince1970 * 1_000)
                let weighIn = #"{"entry": {"weightKg": 71.5, "measuredAtMs": "\#(now)"}}"#
                let logged = try Self.curl(common + bearer + ["-H", "Idempotency-Key: scale-1", "-d", weighIn, base + "/workout.v1.LoggingService/LogWeight"])
                #expect(logged.status == 0 && logged.output.contains(#""weightKg":71.5"#), "\(logged)")
                let retried = try Self.curl(common + bearer + ["-H", "Idempotency-Key: scale-1", "-d", weighIn, base + "/workout.v1.LoggingService/LogWeight"])
                #expect(retried.output.contains(#""replayed":true"#), "\(retried)")

                let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "Europe/Berlin")!, formatOptions: [.withFullDate])
                let parts = today.split(separator: "-").map { Int($0)! }
                let week = #"{"fromDay": {"year": \#(parts[0]), "month": \#(parts[1]), "day": 1}, "toDay": {"year": \#(parts[0]), "month": \#(parts[1]), "day": \#(parts[2])}, "granularity": "GRANULARITY_WEEK"}"#
                let summaries = try Self.curl(common + bearer + ["-d", week, base + "/workout.v1.QueriesService/Summaries"])
                #expect(summaries.status == 0 && summaries.output.hasPrefix(#"{"periods":["#), "\(summaries)")

                // Another pin: curl refuses before sending anything.
                let wrong = try Self.curl(common + ["--pinnedpubkey", "sha256//" + Data(repeating: 7, count: 32).base64EncodedString(), "-d", "{}",
                                                    base + "/workout.v1.MetaService/Health"])
                #expect(wrong.status == 90, "curl's exit status for a pin mismatch is 90: \(wrong)")
            }
        }
    }

    /// Runs a shell script in `directory`; its exit status.
    static func shell(_ script: String, in directory: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("With the household's own CA and certificate, curl trusts the server through the CA alone, and the pin is the certificate's key",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "Debian's curl is not installed"))
    func householdCertificate() async throws {
        try await blocking {
            try withTemporaryDirectory { path in
                let made = try Self.shell("""
                    set -e
                    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 30 -subj "/CN=Household CA"
                    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-384 -nodes -keyout server.key -out server.csr -subj "/CN=workout.test"
                    printf 'subjectAltName=DNS:workout.test\n' > extensions
                    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 30 -extfile extensions
                    openssl pkey -in server.key -pubout -outform DER -out server.spki
                    chmod 600 server.key
                    """, in: path)
                #expect(made == 0)
                let data = path + "/data"
                _ = try createOwner(data)
                let server = try ServeProcess(
                    dataDirectory: data, transport: "tls",
                    arguments: ["--tls-certificate", path + "/server.pem", "--tls-key", path + "/server.key"])
                defer { server.stop() }
                let printed = try #require(ServerKeyTests.line(startingWith: "TLS key fingerprint: ", from: server), "\(server.banner)")
                let spki = try Data(contentsOf: URL(fileURLWithPath: path + "/server.spki"))
                #expect(printed == "TLS key fingerprint: \(KeyFingerprint(publicKey: Array(spki)).description)")

                let url = "https://workout.test:\(server.port)/workout.v1.MetaService/Health"
                let resolve = ["--resolve", "workout.test:\(server.port):127.0.0.1", "-H", "Content-Type: application/json", "-d", "{}"]
                let trusted = try Self.curl(resolve + ["--cacert", path + "/ca.pem", url])
                #expect(trusted.status == 0 && trusted.output.contains(#""serving":true"#), "\(trusted)")
                let untrusted = try Self.curl(resolve + [url])
                #expect(untrusted.status == 60, "without the CA, curl refuses the certificate: \(untrusted)")
                // `workoutd fingerprint --tls-certificate` prints the pin of the certificate served,
                // which curl then takes; without it, the refusal says how to get it.
                let pin = try WorkoutdProcess.run(["fingerprint", "--tls-certificate", path + "/server.pem", "--format", "curl"])
                #expect(pin.status == 0 && pin.output.hasPrefix("sha256//"), "\(pin)")
                let pinned = try Self.curl(resolve + ["--cacert", path + "/ca.pem", "--pinnedpubkey", pin.output.trimmingCharacters(in: .whitespacesAndNewlines), url])
                #expect(pinned.status == 0, "the printed pin is the served key's: \(pinned)")
                let groups = try WorkoutdProcess.run(["fingerprint", "--tls-certificate", path + "/server.pem"])
                #expect(groups.output == "\(KeyFingerprint(publicKey: Array(spki)).description)\n", "\(groups)")
                let noKey = try WorkoutdProcess.run(["fingerprint", "--data-dir", path + "/nowhere"])
                #expect(noKey.status == 3 && noKey.error.contains("fingerprint --tls-certificate"), "\(noKey)")
            }
        }
    }

    @Test("A key readable by every user, or a key that is not the certificate's, is refused at start")
    func householdCertificateRefused() async throws {
        try await blocking {
            try withTemporaryDirectory { path in
                #expect(try Self.shell("""
                    set -e
                    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout a.key -out a.pem -days 30 -subj "/CN=a"
                    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout b.key -out b.pem -days 30 -subj "/CN=b"
                    chmod 644 a.key; chmod 600 b.key
                    """, in: path) == 0)
                let data = path + "/data"
                _ = try createOwner(data)
                let open = try WorkoutdProcess.run(["serve", "--data-dir", data, "--port", "0", "--tls-certificate", path + "/a.pem", "--tls-key", path + "/a.key"])
                #expect(open.status != 0 && open.error.contains("readable or writable by every user"), "\(open)")
                let mismatched = try WorkoutdProcess.run(["serve", "--data-dir", data, "--port", "0", "--tls-certificate", path + "/a.pem", "--tls-key", path + "/b.key"])
                #expect(mismatched.status != 0 && mismatched.error.contains("is not the key of the certificate"), "\(mismatched)")
                let alone = try WorkoutdProcess.run(["serve", "--data-dir", data, "--port", "0", "--tls-certificate", path + "/a.pem"])
                #expect(alone.status != 0 && alone.error.contains("go together"), "\(alone)")
            }
        }
    }

    /// The sh block of README.md's curl session, as it is written there.
    static func readmeSession() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "A session with `curl`"), "README.md lost its curl session")
        let start = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test("README.md's curl session runs as written against a real server, and run again logs a second weigh-in")
    func readmeSessionAsWritten() async throws {
        let session = try Self.readmeSession()
        try await blocking {
            try withTemporaryDirectory { path in
                // The session runs where `workoutd`'s default data directory is the server's.
                let data = path + "/workout-data"
                _ = try createOwner(data)
                let server = try ServeProcess(dataDirectory: data, transport: "tls")
                defer { server.stop() }
                let workoutd = try #require(BuiltProduct.path(named: "workoutd", override: "WORKOUTD_BINARY"))
                // What stands in for the household: `swift run workoutd` is the built workoutd,
                // workout.local:7420 is this server (curl's connect-to, from ~/.curlrc), and
                // the member's email and password are the owner's.
                try FileManager.default.createDirectory(atPath: path + "/bin", withIntermediateDirectories: true)
                try """
                    #!/bin/sh
                    [ "$1" = run ] && [ "$2" = workoutd ] || { echo "swift stand-in: $*" >&2; exit 97; }
                    shift 2
                    exec "\(workoutd)" "$@"

                    """.write(toFile: path + "/bin/swift", atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path + "/bin/swift")
                try "connect-to = workout.local:7420:127.0.0.1:\(server.port)\nmax-time = 20\n"
                    .write(toFile: path + "/.curlrc", atomically: true, encoding: .utf8)
                let script = session.replacingOccurrences(of: "you@example.com", with: "ada@example.com")
                    .replacingOccurrences(of: #""password": "…""#, with: #""password": "correct horse battery""#)
                #expect(script != session && script.contains("ada@example.com") && script.contains("correct horse battery"))

                var runs: [String] = []
                for _ in 0..<2 {
                    // An interactive shell's aliases, and a stop at the first command that fails.
                    let run = try ProcessRunner.run(
                        "/bin/bash", ["-O", "expand_aliases", "-e", "-o", "pipefail", "-c", script],
                        environment: ["HOME": path, "PATH": path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")],
                        removing: ["WORKOUTD_"], in: path, timeout: 60)
                    #expect(run.status == 0 && !run.killed, "\(run)")
                    #expect(run.output.contains(#""weightKg":71.5"#) && run.output.contains(#"{"periods":["#), "\(run)")
                    #expect(!run.output.contains("replayed"), "a later weigh-in is a new one: \(run)")
                    // The next run's M is a later millisecond: a run takes far longer.
                    runs.append(run.output)
                }
                // Two weigh-ins, with two ids.
                let ids = runs.compactMap { run in run.range(of: #""id":""#).map { String(run[$0.upperBound...].prefix(24)) } }
                #expect(ids.count == 2 && ids[0] != ids[1], "\(runs)")
            }
        }
    }
}
