import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TestSupport
import Testing
import WorkoutClient

/// The pin file under concurrent writers: every pin is kept and the file stays well formed. And
/// what is refused as a pin file: a link, a FIFO, a file in a folder others could change.
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

    static let server = ServerAddress(host: "10.0.0.1", port: 7420)
    static let pin = ServerFingerprint(publicKey: [1, 2, 3])

    /// The error reading the pins for ``server`` at `path` gives, or `nil` when it reads.
    static func readFailure(_ path: String) -> WorkoutError? {
        do {
            _ = try KnownServers(path: path).fingerprint(for: server)
            return nil
        } catch {
            return error
        }
    }

    @Test("A pin file that is a link is refused, whatever it points to")
    func linkRefused() throws {
        try withTemporaryDirectory { directory in
            let real = directory + "/real_known_servers"
            try KnownServers(path: real).remember(Self.pin, for: Self.server)
            #expect(try KnownServers(path: real).fingerprint(for: Self.server) == Self.pin)
            let link = directory + "/known_servers"
            #expect(symlink(real, link) == 0)
            let error = Self.readFailure(link)
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("not a regular file") == true, "\(String(describing: error))")
        }
    }

    @Test("A FIFO as the pin file is refused at once, without waiting for a writer", .timeLimit(.minutes(1)))
    func fifoRefused() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/known_servers"
            #expect(mkfifo(path, 0o600) == 0)
            let error = Self.readFailure(path)
            #expect(error?.message.contains("not a regular file") == true, "\(String(describing: error))")
        }
    }

    @Test("Pins in a folder others can change are refused, unless the folder is sticky")
    func looseFolder() throws {
        try withTemporaryDirectory { directory in
            let folder = directory + "/config"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let path = folder + "/known_servers"
            try KnownServers(path: path).remember(Self.pin, for: Self.server)
            for mode in [0o777, 0o770, 0o702] {
                #expect(chmod(folder, mode_t(mode)) == 0)
                let error = Self.readFailure(path)
                #expect(error?.code == .failedPrecondition)
                #expect(error?.message.contains("can be changed by other users") == true, "mode \(String(mode, radix: 8)): \(String(describing: error))")
                #expect(throws: WorkoutError.self) { try KnownServers(path: path).remember(Self.pin, for: Self.server) }
            }
            // Sticky, as /tmp: nobody removes or renames another's file there.
            #expect(chmod(folder, mode_t(0o1777)) == 0)
            #expect(Self.readFailure(path) == nil)
            #expect(chmod(folder, mode_t(0o700)) == 0)
            #expect(try KnownServers(path: path).fingerprint(for: Self.server) == Self.pin)
        }
    }
}
