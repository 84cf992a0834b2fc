import Foundation
import Storage
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol

/// Archives written from a live store and restored: the round trip, and every way a damaged or
/// foreign archive is refused before anything is replaced.
@Suite("Backup archives: one verified file, restored only when intact")
struct BackupArchiveTests {
    /// Logs `count` weight entries for the owner.
    static func logWeights(_ household: Household, count: Int) async throws {
        for index in 0..<count {
            var request = Workout_V1_LogWeightRequest()
            request.entry.id = UUID().data
            request.entry.weightKg = 70 + Double(index) / 10
            request.entry.measuredAtMs = householdStart - Int64(index + 1) * 3_600_000
            _ = try await household.store.logWeight(household.owner.caller, request)
        }
    }

    /// The number of weight entries in the store in `directory`.
    static func weightCount(in directory: String) throws -> Int {
        let store = try HouseholdStore(directory: directory)
        defer { store.close() }
        return try store.store.read { txn throws in try txn.count(of: store.tables.weights.table) }
    }

    /// Runs a tool (tar) and returns its output, or `nil` when it is not installed.
    static func run(_ tool: String, _ arguments: [String], in directory: String) throws -> String? {
        guard let path = ["/usr/bin/\(tool)", "/bin/\(tool)"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
        return String(decoding: output, as: UTF8.self)
    }

    /// An archive of a household with an owner and `weights` weight entries, at `path`.
    static func writeArchive(to path: String, weights: Int = 25) async throws -> BackupArchive.Written {
        try await withHousehold { household in
            try await logWeights(household, count: weights)
            return try BackupArchive.write(
                from: household.store.store, to: path, serverVersion: "9.9.9", host: "testhost",
                now: Date(timeIntervalSince1970: 1_780_315_200.7))
        }
    }

    /// A store in `directory` with one owner, for restores to (not) replace.
    static func existingStore(_ directory: String) throws {
        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        let store = try HouseholdStore(directory: directory, configuration: configuration)
        defer { store.close() }
        _ = try store.createOwner(email: "kept@example.com", password: "correct horse battery", firstName: "Kept", timeZone: "UTC")
    }

    /// Whether the store in `directory` is still the one ``existingStore(_:)`` made, and no
    /// temporary file of a restore is left beside it.
    static func expectUntouched(_ directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = try HouseholdStore(directory: directory)
        defer { store.close() }
        #expect(try store.listMembersLocally().map(\.email) == ["kept@example.com"], sourceLocation: sourceLocation)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("restoring") }
        #expect(leftovers.isEmpty, "left behind: \(leftovers)", sourceLocation: sourceLocation)
    }

    /// Expects `body` to throw a ``StorageError`` with `code` whose message contains `text`.
    static func expectRefused(
        _ code: StorageError.Code, _ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected \(code) (\(text)), but it succeeded", sourceLocation: sourceLocation)
        } catch let error as StorageError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a StorageError \(code), got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("An archive holds the manifest, then the store; it restores into a new directory with the same records")
    func roundTrip() async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            let written = try await Self.writeArchive(to: archive)
            let manifest = written.manifest
            #expect(manifest.format == "workout-backup" && manifest.formatVersion == 2 && manifest.files == [])
            #expect(manifest.serverVersion == "9.9.9" && manifest.host == "testhost")
            #expect(manifest.createdAt == Date(timeIntervalSince1970: 1_780_315_200))
            #expect(manifest.schemaVersion == HouseholdSchema.version)
            #expect(manifest.records["weights"] == 25 && manifest.records["weights_by_time"] == 25 && manifest.records["users"] == 1)
            #expect(manifest.storeSHA256.count == 64)
            #expect(written.archiveBytes < manifest.storeBytes, "compressed")
            #expect(try BackupArchive.readManifest(archive, schema: HouseholdSchema.schema) == manifest)
            let attributes = try FileManager.default.attributesOfItem(atPath: archive)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["a.tar.gz"], "no scratch copy or partial file left")

            let (summary, restoredManifest, files) = try BackupArchive.restore(
                archive: archive, into: path + "/restored", schema: HouseholdSchema.schema, replacing: false)
            #expect(restoredManifest == manifest && files.isEmpty)
            #expect(summary.bytes == manifest.storeBytes && !summary.replacedExisting)
            #expect(try Self.weightCount(in: path + "/restored") == 25)

            // Standard tools read it: a family can look inside with tar.
            if let listing = try Self.run("tar", ["-tzf", archive], in: path) {
                #expect(listing == "manifest.json\ndata.mdb\n")
            }
        }
    }

    @Test("An archive is never overwritten")
    func neverOverwritten() async throws {
        try await withTemporaryDirectory { path in
            _ = try await Self.writeArchive(to: path + "/a.tar.gz", weights: 1)
            let before = try Data(contentsOf: URL(fileURLWithPath: path + "/a.tar.gz"))
            await #expect(throws: StorageError.self) { _ = try await Self.writeArchive(to: path + "/a.tar.gz", weights: 2) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/a.tar.gz")) == before)
        }
    }

    /// Ways to damage an archive's bytes.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case cutInTheStore, cutAtTheEnd, cutInTheHeader, flippedByte, empty, notGzip

        var testDescription: String { rawValue }

        func apply(_ bytes: Data) -> Data {
            switch self {
            case .cutInTheStore: bytes.prefix(bytes.count / 2)
            case .cutAtTheEnd: bytes.dropLast(4)
            case .cutInTheHeader: bytes.prefix(20)
            case .flippedByte:
                {
                    var copy = bytes
                    copy[copy.count / 2] ^= 0x55
                    return copy
                }()
            case .empty: Data()
            case .notGzip: Data("this is not an archive".utf8)
            }
        }

        /// What the refusal says.
        var message: String {
            switch self {
            case .cutInTheStore, .cutAtTheEnd, .cutInTheHeader: "is truncated"
            case .flippedByte: "damaged or was altered"
            case .empty, .notGzip: "is not a Workout backup archive"
            }
        }
    }

    @Test("A truncated or altered archive is refused, and the existing store is left as it was", arguments: Damage.allCases)
    func damaged(_ damage: Damage) async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            _ = try await Self.writeArchive(to: archive, weights: 200)
            try damage.apply(try Data(contentsOf: URL(fileURLWithPath: archive))).write(to: URL(fileURLWithPath: archive))
            try Self.existingStore(path + "/data")
            Self.expectRefused(.damagedBackup, damage.message) {
                _ = try BackupArchive.restore(archive: archive, into: path + "/data", schema: HouseholdSchema.schema, replacing: true)
            }
            try Self.expectUntouched(path + "/data")
        }
    }

    /// Rewrites an archive with tar: `edit` changes the extracted manifest.json, `files` and data.mdb.
    static func tamper(
        _ archive: String, in path: String, files: [String] = [], _ edit: (String) throws -> Void
    ) throws -> Bool {
        let work = path + "/tamper"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        guard try run("tar", ["-xzf", archive], in: work) != nil else { return false }
        try edit(work)
        try FileManager.default.removeItem(atPath: archive)
        _ = try run("tar", ["--format=ustar", "-czf", archive, "manifest.json"] + files + ["data.mdb"], in: work)
        return true
    }

    /// The files of a server identity, as workoutd hands them to an archive.
    static let identityFiles = [
        BackupArchive.File(name: "identity/key.pem", bytes: Array("-----BEGIN PRIVATE KEY-----\nsecret\n".utf8), mode: 0o600),
        BackupArchive.File(name: "identity/certificate.pem", bytes: Array("-----BEGIN CERTIFICATE-----\npublic\n".utf8), mode: 0o644),
    ]

    @Test("Files carried beside the store are listed in the manifest, come back with their modes, and tar sees them")
    func filesBesideTheStore() async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            let written = try await withHousehold { household in
                try BackupArchive.write(
                    from: household.store.store, to: archive, serverVersion: "9.9.9", host: "h", files: Self.identityFiles)
            }
            #expect(written.manifest.files?.map(\.name) == ["identity/key.pem", "identity/certificate.pem"])
            #expect(written.manifest.files?.first?.bytes == Self.identityFiles[0].bytes.count)
            #expect(written.manifest.files?.allSatisfy { $0.sha256.count == 64 } == true)
            let (_, _, files) = try BackupArchive.restore(
                archive: archive, into: path + "/restored", schema: HouseholdSchema.schema, replacing: false)
            #expect(files == Self.identityFiles)
            if let listing = try Self.run("tar", ["-tzf", archive], in: path) {
                #expect(listing == "manifest.json\nidentity/key.pem\nidentity/certificate.pem\ndata.mdb\n")
            }

            // A carried file altered (same size, so only its SHA-256 tells) is refused.
            let tampered = try Self.tamper(archive, in: path, files: ["identity/key.pem", "identity/certificate.pem"]) { work in
                var key = try Data(contentsOf: URL(fileURLWithPath: work + "/identity/key.pem"))
                key[key.count - 2] ^= 0x01
                try key.write(to: URL(fileURLWithPath: work + "/identity/key.pem"))
            }
            guard tampered else { return print("skipped: tar is not installed") }
            Self.expectRefused(.damagedBackup, "was altered: the SHA-256 of its identity/key.pem is") {
                _ = try BackupArchive.restore(archive: archive, into: path + "/again", schema: HouseholdSchema.schema, replacing: false)
            }
            #expect(!FileManager.default.fileExists(atPath: path + "/again/data.mdb"))
        }
    }

    @Test("An archive of format version 1 (the store alone, no files in its manifest) still restores")
    func formatVersionOne() async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            _ = try await Self.writeArchive(to: archive, weights: 3)
            let tampered = try Self.tamper(archive, in: path) { work in
                let url = URL(fileURLWithPath: work + "/manifest.json")
                var manifest = try BackupManifest.decode(Array(try Data(contentsOf: url)))
                manifest.formatVersion = 1
                manifest.files = nil
                try Data(try manifest.encoded()).write(to: url)
            }
            guard tampered else { return print("skipped: tar is not installed") }
            #expect(!(try String(contentsOfFile: path + "/tamper/manifest.json", encoding: .utf8)).contains("files"))
            let (_, manifest, files) = try BackupArchive.restore(
                archive: archive, into: path + "/restored", schema: HouseholdSchema.schema, replacing: false)
            #expect(manifest.formatVersion == 1 && files.isEmpty)
            #expect(try Self.weightCount(in: path + "/restored") == 3)
        }
    }

    @Test("A store whose bytes differ from the manifest's SHA-256 is refused, though gzip's CRC is intact")
    func alteredStore() async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            _ = try await Self.writeArchive(to: archive)
            let tampered = try Self.tamper(archive, in: path) { work in
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: work + "/data.mdb"))
                try handle.seek(toOffset: 5000)
                try handle.write(contentsOf: Data([0xAB]))
                try handle.close()
            }
            guard tampered else { return print("skipped: tar is not installed") }
            try Self.existingStore(path + "/data")
            Self.expectRefused(.damagedBackup, "was altered: the SHA-256 of its data.mdb is") {
                _ = try BackupArchive.restore(archive: archive, into: path + "/data", schema: HouseholdSchema.schema, replacing: true)
            }
            try Self.expectUntouched(path + "/data")
        }
    }

    @Test("An archive of a newer schema is refused from its manifest, before anything is written")
    func newerSchemaInManifest() async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            _ = try await Self.writeArchive(to: archive)
            let tampered = try Self.tamper(archive, in: path) { work in
                let url = URL(fileURLWithPath: work + "/manifest.json")
                var manifest = try BackupManifest.decode(Array(try Data(contentsOf: url)))
                manifest.schemaVersion = HouseholdSchema.version + 1
                try Data(try manifest.encoded()).write(to: url)
            }
            guard tampered else { return print("skipped: tar is not installed") }
            Self.expectRefused(.schemaTooNew, "holds a store of schema version \(HouseholdSchema.version + 1) (written by workoutd 9.9.9); this workoutd knows up to schema version \(HouseholdSchema.version)") {
                _ = try BackupArchive.restore(archive: archive, into: path + "/fresh", schema: HouseholdSchema.schema, replacing: false)
            }
            #expect(!FileManager.default.fileExists(atPath: path + "/fresh"), "nothing created")
        }
    }

    @Test("A store of a newer schema, archived by a newer build, is refused and nothing is replaced")
    func newerStore() throws {
        try withTemporaryDirectory { path in
            let newer = Schema(version: HouseholdSchema.version + 5, tables: ["users"])
            let store = try Store(directory: path + "/newer", schema: newer)
            store.close()
            let archive = path + "/newer.tar.gz"
            let written = try BackupArchive.write(storeIn: path + "/newer", schema: newer, to: archive, serverVersion: "99.0", host: "h")
            #expect(written.manifest.schemaVersion == HouseholdSchema.version + 5)
            try Self.existingStore(path + "/data")
            Self.expectRefused(.schemaTooNew, "restore it with workoutd 99.0 or newer") {
                _ = try BackupArchive.restore(archive: archive, into: path + "/data", schema: HouseholdSchema.schema, replacing: true)
            }
            try Self.expectUntouched(path + "/data")
        }
    }

    @Test("An intact archive replaces an existing store only when asked to")
    func replacing() async throws {
        try await withTemporaryDirectory { path in
            let archive = path + "/a.tar.gz"
            _ = try await Self.writeArchive(to: archive, weights: 3)
            try Self.existingStore(path + "/data")
            Self.expectRefused(.storeExists, "holds a store already") {
                _ = try BackupArchive.restore(archive: archive, into: path + "/data", schema: HouseholdSchema.schema, replacing: false)
            }
            try Self.expectUntouched(path + "/data")
            let (summary, _, _) = try BackupArchive.restore(archive: archive, into: path + "/data", schema: HouseholdSchema.schema, replacing: true)
            #expect(summary.replacedExisting)
            #expect(try Self.weightCount(in: path + "/data") == 3)
        }
    }
}

