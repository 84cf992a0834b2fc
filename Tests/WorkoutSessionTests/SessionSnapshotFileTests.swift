import Foundation
import TestSupport
import Testing
@testable import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// The snapshot file on its own: it round-trips, and every kind of bad file is ignored with a
/// reason, never trusted and never a crash.
@Suite("Session snapshot file")
struct SessionSnapshotFileTests {
    static let account = "olga@example.com on loopback"

    static func snapshot(account: String = account, format: Int = SessionSnapshot.currentFormat) -> SessionSnapshot {
        var content = SessionContent()
        content.profile = Profile(id: UUID(), email: "olga@example.com", firstName: "Olga", timeZone: "Europe/Berlin", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        content.totals = Totals(totalWorkouts: 3, totalCaloriesBurned: 750, points: 250, level: 1, currentStreakDays: 2, longestStreakDays: 2,
                                lastWorkoutDay: LocalDate(year: 2026, month: 11, day: 24))
        content.today = LocalDate(year: 2026, month: 11, day: 25)
        content.recentWorkouts = [Workout(type: "running", durationSeconds: 1_800, caloriesBurned: 250, performedAt: Date(timeIntervalSince1970: 1_764_000_000),
                                          timeZone: "Europe/Berlin", localDay: LocalDate(year: 2026, month: 11, day: 24), revision: 7)]
        content.todaysMeals = [Meal(mealType: .lunch, eatenAt: Date(timeIntervalSince1970: 1_764_072_000), timeZone: "Europe/Berlin",
                                    items: [FoodItem(name: "soup", calories: 300)], localDay: content.today, revision: 8)]
        return SessionSnapshot(format: format, account: account, savedAt: Date(timeIntervalSince1970: 1_764_072_100), revision: 8, content: content)
    }

    @Test("a saved snapshot reads back equal, and saving leaves no temporary file")
    func roundTrip() throws {
        try withTemporaryDirectory { directory in
            let file = SessionSnapshotFile(path: directory + "/session.snapshot", maxBytes: 1 << 20)
            #expect({ if case .absent = file.read(account: Self.account) { true } else { false } }())
            let saved = Self.snapshot()
            try file.write(try file.encode(saved))
            guard case .restored(let read) = file.read(account: Self.account) else {
                Issue.record("the snapshot was not restored")
                return
            }
            #expect(read == saved)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["session.snapshot"])
            // A second save replaces the first.
            var newer = saved
            newer.revision = 9
            try file.write(try file.encode(newer))
            guard case .restored(let again) = file.read(account: Self.account) else {
                Issue.record("the second snapshot was not restored")
                return
            }
            #expect(again.revision == 9)
        }
    }

    /// Ways a file can be bad: each is ignored with a reason that says which.
    enum Damage: String, CaseIterable, Sendable {
        case flippedPayloadByte, truncated, trailingBytes, foreignMagic, empty, notJSON, otherAccount, otherFormat
    }

    @Test("a damaged, foreign or incompatible file is ignored with a reason", arguments: Damage.allCases)
    func damaged(_ damage: Damage) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/session.snapshot"
            let file = SessionSnapshotFile(path: path, maxBytes: 1 << 20)
            var bytes = try file.encode(Self.snapshot(
                account: damage == .otherAccount ? "someone else" : Self.account,
                format: damage == .otherFormat ? SessionSnapshot.currentFormat + 1 : SessionSnapshot.currentFormat))
            switch damage {
            case .flippedPayloadByte: bytes[bytes.count / 2] ^= 0x20
            case .truncated: bytes.removeLast(10)
            case .trailingBytes: bytes += [0, 1, 2]
            case .foreignMagic: bytes.replaceSubrange(0..<8, with: Array("WKOUTBOX".utf8))
            case .empty: bytes = []
            case .notJSON:
                // A valid frame around a payload that is not a snapshot.
                let payload = Array("[1,2,3]".utf8)
                let checksum = crc(payload)
                let header: [UInt8] = [0, 0, 0, UInt8(payload.count)] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: checksum >> UInt32($0)) }
                bytes = Array(bytes.prefix(8)) + header + payload
            case .otherAccount, .otherFormat: break
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            guard case .ignored(let reason) = file.read(account: Self.account) else {
                Issue.record("a file with \(damage) was not ignored")
                return
            }
            let expected: String = switch damage {
            case .flippedPayloadByte: "checksum"
            case .truncated, .trailingBytes: "cut short"
            case .foreignMagic, .empty: "not a session snapshot"
            case .notJSON: "does not decode"
            case .otherAccount: "another account"
            case .otherFormat: "format"
            }
            #expect(reason.contains(expected), "\(reason)")
        }
    }

    @Test("a file over the limit is neither read nor written")
    func bounded() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/session.snapshot"
            let small = SessionSnapshotFile(path: path, maxBytes: 600)
            #expect(throws: WorkoutError.self) { try small.encode(Self.snapshot()) }
            let large = SessionSnapshotFile(path: path, maxBytes: 1 << 20)
            try large.write(try large.encode(Self.snapshot()))
            guard case .ignored(let reason) = small.read(account: Self.account) else {
                Issue.record("an oversized file was read")
                return
            }
            #expect(reason.contains("limit"))
        }
    }

    @Test("a session model over a damaged snapshot starts empty and says why")
    @MainActor
    func modelIgnoresDamage() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/session.snapshot"
            try Data("garbage that is not a snapshot".utf8).write(to: URL(fileURLWithPath: path))
            let client = WorkoutClient(configuration: .init(address: ServerAddress(host: "127.0.0.1", port: 9)),
                                       sessionToken: SessionToken(unchecked: Data(repeating: 7, count: 32)))
            let session = WorkoutSession(client: client, storage: .init(snapshotPath: path, account: Self.account))
            #expect(session.profile == nil)
            #expect(session.status == .signedOut)
            #expect(!session.isStale)
            #expect(session.ignoredSnapshotReason?.contains("not a session snapshot") == true)
            client.close()
        }
    }

    private func crc(_ bytes: [UInt8]) -> UInt32 {
        // The same CRC-32 the file uses, computed bit by bit (polynomial 0xEDB88320).
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
