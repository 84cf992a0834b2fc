import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TestSupport
import Testing
import WorkoutClient

/// The pin file under concurrent writers: every pin is kept and the file stays well formed.
@Suite("KnownServers pin file")
struct KnownServersTests {
    @Test("Many concurrent remembers, each through its own KnownServers, keep every pin in a well-formed file")
    func concurrentRemembers() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/known_servers"
            let writers = 48
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: writers) { index in
                // A KnownServers of its own: like another process, it shares only the file.
                let pins = KnownServers(path: path)
                do {
                    try pins.remember(ServerFingerprint(publicKey: [UInt8(index)]), for: ServerAddress(host: "10.0.0.\(index)", port: 7420))
                } catch {
                    failures.withLock { $0.append("\(index): \(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let pins = KnownServers(path: path)
            for index in 0..<writers {
                #expect(try pins.fingerprint(for: ServerAddress(host: "10.0.0.\(index)", port: 7420)) == ServerFingerprint(publicKey: [UInt8(index)]),
                        "pin \(index) lost")
            }
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == writers)
            // No temporary file is left behind.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "known_servers" && $0 != "known_servers.lock" }
            #expect(leftovers.isEmpty, "\(leftovers)")
            var status = stat()
            #expect(stat(path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
        }
    }
}
