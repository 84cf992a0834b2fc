import Foundation
import ProcessTestSupport
import Storage
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The server's key travels with its backups: a restored server presents the key its devices
/// pinned, run as processes (`serve`, `backup`, `restore`, `fingerprint`, `rotate-key`).
@Suite("workoutd backup and restore carry the server's key")
struct IdentityBackupTests {
    /// Starts `workoutd serve` over TLS on `data` until it prints its fingerprint (making the
    /// key on a first start), stops it, and returns the fingerprint.
    static func serveOnce(_ data: String) throws -> KeyFingerprint {
        let server = try ServeProcess(dataDirectory: data, transport: "tls")
        defer { server.stop() }
        let printed = try #require(ServerKeyTests.line(startingWith: "TLS key fingerprint: ", from: server), "serve: \(server.banner)")
        return try #require(KeyFingerprint(printed.dropFirst("TLS key fingerprint: ".count)), "\(printed)")
    }

    /// What `workoutd fingerprint` prints for `data`.
    static func fingerprint(_ data: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> KeyFingerprint? {
        let shown = try WorkoutdProcess.run(["fingerprint", "--data-dir", data])
        #expect(shown.status == 0, "\(shown)", sourceLocation: sourceLocation)
        return KeyFingerprint(shown.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The permission bits of the file at `path`.
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test("An archive lists and carries identity/ (key 0600); restored into a fresh data directory, fingerprint prints the same key")
    func archiveRoundTrip() async throws {
        // Off the cooperative pool: the test waits for workoutd processes.
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let served = try Self.serveOnce(data)

                let archive = path + "/a.tar.gz"
                let backup = try WorkoutdProcess.run(["backup", "--data-dir", data, "--archive", archive])
                #expect(backup.status == 0 && backup.output.contains("with the server's key (identity/)"), "\(backup)")
                let manifest = try BackupArchive.readManifest(archive, schema: HouseholdSchema.schema)
                #expect(manifest.formatVersion == 2)
                #expect(manifest.files?.map(\.name) == ["identity/certificate.pem", "identity/endorsements", "identity/key.pem"])
                let keyBytes = try Data(contentsOf: URL(fileURLWithPath: data + "/identity/key.pem"))
                #expect(manifest.files?.last?.bytes == keyBytes.count)

                let restore = try WorkoutdProcess.run(["restore", "--data-dir", path + "/fresh", archive])
                #expect(restore.status == 0, "\(restore)")
                #expect(restore.output.contains("Restored the server's key (fingerprint \(served))."), "\(restore)")
                #expect(Self.mode(path + "/fresh/identity/key.pem") == 0o600)
                #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/fresh/identity/key.pem")) == keyBytes)
                #expect(try Self.fingerprint(path + "/fresh") == served)
                #expect(try Self.serveOnce(path + "/fresh") == served, "the restored server presents the same key")

                // tar sees the key with mode 0600 inside the archive as well.
                if FileManager.default.isExecutableFile(atPath: "/usr/bin/tar") || FileManager.default.isExecutableFile(atPath: "/bin/tar") {
                    let listing = try ProcessRunner.run("/bin/sh", ["-c", "tar -tvzf '\(archive)'"], in: path, timeout: 30)
                    let keyLine = listing.output.split(separator: "\n").first { $0.hasSuffix("identity/key.pem") }
                    #expect(keyLine?.hasPrefix("-rw-------") == true, "\(listing.output)")
                }
            }
        }
    }

    @Test("A restore without a key in the backup keeps the key there; a key rotated after the backup is kept; another key is replaced")
    func keepOrReplace() async throws {
        // Off the cooperative pool: the test waits for workoutd processes.
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let original = try Self.serveOnce(data)
                let withKey = path + "/with-key.tar.gz"
                #expect(try WorkoutdProcess.run(["backup", "--data-dir", data, "--archive", withKey]).status == 0)

                // A household that never served has no key: its archive carries none.
                let keyless = path + "/keyless"
                _ = try createOwner(keyless, email: "other@example.com")
                let withoutKey = path + "/without-key.tar.gz"
                let plain = try WorkoutdProcess.run(["backup", "--data-dir", keyless, "--archive", withoutKey])
                #expect(plain.status == 0 && plain.output.contains("without a server key"), "\(plain)")

                #expect(try WorkoutdProcess.run(["restore", "--data-dir", path + "/target", withKey]).status == 0)
                let kept = try WorkoutdProcess.run(["restore", "--data-dir", path + "/target", "--force", withoutKey])
                #expect(kept.status == 0 && kept.output.contains("The backup holds no server key; kept the one in"), "\(kept)")
                #expect(try Self.fingerprint(path + "/target") == original)
                #expect(Self.mode(path + "/target/identity/key.pem") == 0o600)

                // rotate-key after the backup: the newer key, which the archived one vouched for, stays.
                #expect(try WorkoutdProcess.run(["rotate-key", "--data-dir", path + "/target"]).status == 0)
                let rotated = try #require(try Self.fingerprint(path + "/target"))
                #expect(rotated != original)
                let afterRotation = try WorkoutdProcess.run(["restore", "--data-dir", path + "/target", "--force", withKey])
                #expect(afterRotation.status == 0 && afterRotation.output.contains("Kept the server's key in"), "\(afterRotation)")
                #expect(try Self.fingerprint(path + "/target") == rotated)

                // A key of another server there (not vouched for by the backup's): the backup's wins.
                let other = path + "/other"
                _ = try createOwner(other, email: "third@example.com")
                let otherKey = try Self.serveOnce(other)
                let replaced = try WorkoutdProcess.run(["restore", "--data-dir", other, "--force", withKey])
                #expect(replaced.status == 0, "\(replaced)")
                #expect(replaced.output.contains("Restored the server's key (fingerprint \(original)), replacing the key \(otherKey)."), "\(replaced)")
                #expect(try Self.fingerprint(other) == original)
            }
        }
    }

    @Test("An archive whose key does not parse is refused before the store is touched")
    func unparsableKeyChangesNothing() async throws {
        // Off the cooperative pool: the test waits for workoutd processes.
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let archive = path + "/bad-key.tar.gz"
                _ = try BackupArchive.write(
                    storeIn: data, schema: HouseholdSchema.schema, to: archive, serverVersion: "test", host: "test",
                    files: [
                        BackupArchive.File(name: "identity/certificate.pem", bytes: Array("not a certificate".utf8), mode: 0o644),
                        BackupArchive.File(name: "identity/key.pem", bytes: Array("not a key".utf8), mode: 0o600),
                    ])

                let target = path + "/target"
                _ = try createOwner(target, email: "other@example.com")
                let before = try Data(contentsOf: URL(fileURLWithPath: target + "/data.mdb"))
                let restore = try WorkoutdProcess.run(["restore", "--data-dir", target, "--force", archive])
                #expect(restore.status != 0, "\(restore)")
                #expect(restore.error.contains("cannot be restored (nothing was changed)"), "\(restore)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: target + "/data.mdb")) == before, "the store there is untouched")
                let left = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
                #expect(!left.contains { $0.contains("restoring") }, "\(left)")
            }
        }
    }

    @Test("A plain backup directory carries identity/ too, and restoring it restores the key")
    func directoryRoundTrip() async throws {
        // Off the cooperative pool: the test waits for workoutd processes.
        try await blocking {
            try withTemporaryDirectory { path in
                let data = path + "/data"
                _ = try createOwner(data)
                let served = try Self.serveOnce(data)
                let backup = try WorkoutdProcess.run(["backup", "--data-dir", data, path + "/copy"])
                #expect(backup.status == 0 && backup.output.contains("Copied the server's key (fingerprint \(served))"), "\(backup)")
                #expect(Self.mode(path + "/copy/identity/key.pem") == 0o600)
                let restore = try WorkoutdProcess.run(["restore", "--data-dir", path + "/fresh", path + "/copy"])
                #expect(restore.status == 0 && restore.output.contains("Restored the server's key (fingerprint \(served))."), "\(restore)")
                #expect(try Self.fingerprint(path + "/fresh") == served)
            }
        }
    }
}
