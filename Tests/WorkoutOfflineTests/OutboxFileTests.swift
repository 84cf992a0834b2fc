import Foundation
import TestSupport
import Testing
@testable import WorkoutClient
@testable import WorkoutOffline

/// The outbox's file on its own: what survives closing and reopening, torn and damaged tails,
/// bounds, the lock, and the account it belongs to.
@Suite("Outbox file")
struct OutboxFileTests {
    static let account = "ada@example.com on 127.0.0.1:7420"

    /// A workout with notes of `noteBytes` bytes.
    static func workout(_ notes: String = "", minutes: Int = 30) -> Workout {
        Workout(type: "running", durationSeconds: minutes * 60, caloriesBurned: 250, performedAt: Date(timeIntervalSince1970: 1_750_000_000), timeZone: "Europe/Berlin", notes: notes)
    }

    @Test("Queued writes survive closing and reopening, in order, with their ids")
    func reopen() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/outbox.log"
            let writes: [PendingWrite] = [
                .logWorkout(Self.workout()), .logMeal(Meal(mealType: .lunch, eatenAt: Date(timeIntervalSince1970: 1_750_000_000), items: [FoodItem(name: "soup", calories: 300)])),
                .logWeight(WeightEntry(weightKg: 72.4, measuredAt: Date(timeIntervalSince1970: 1_750_000_000))),
                .reportSteps(StepsReport(day: LocalDate(year: 2025, month: 6, day: 1)!, source: "phone", steps: 8500)),
            ]
            let outbox = try Outbox(path: path, account: Self.account)
            for write in writes { try outbox.enqueue(write) }
            outbox.close()
            #expect(throws: WorkoutError.self) { try outbox.enqueue(writes[0]) }

            let reopened = try Outbox(path: path, account: Self.account)
            #expect(reopened.entries.map(\.write) == writes)
            #expect(reopened.entries.map(\.id) == [1, 2, 3, 4])
            #expect(reopened.droppedBytesAtOpen == 0)
            // Ids are never reused, also after the last one left.
            try reopened.discard(4)
            reopened.close()
            let again = try Outbox(path: path, account: Self.account)
            if case .queued(let entry) = try again.enqueue(writes[3]) { #expect(entry.id == 5) } else { Issue.record("not queued") }
        }
    }

    /// Ways a file ends after a crash or damage: a record cut short, a flipped byte in the last
    /// payload, a length that claims far more than there is, zeros where the filesystem extended
    /// the file before the data reached it, a JSON payload with a valid checksum that is not a record.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case cutShort, flippedByte, hugeLength, zeros, checksummedGarbage
        var testDescription: String { rawValue }

        func apply(to path: String) throws {
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            switch self {
            case .cutShort: bytes.removeLast(7)
            case .flippedByte: bytes[bytes.count - 3] ^= 0x20
            case .hugeLength: bytes += [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 1, 2, 3]
            case .zeros: bytes += [UInt8](repeating: 0, count: 4096)
            case .checksummedGarbage:
                let payload = Array("{\"nothing\":1}".utf8)
                let checksum = OutboxLog.crc(payload[...])
                bytes += [0, 0, 0, UInt8(payload.count)]
                bytes += [UInt8(checksum >> 24), UInt8(checksum >> 16 & 0xFF), UInt8(checksum >> 8 & 0xFF), UInt8(checksum & 0xFF)]
                bytes += payload
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        /// Whether the damage destroys the last whole record (else it only adds a bad tail).
        var losesLastRecord: Bool { self == .cutShort || self == .flippedByte }
    }

    @Test("A torn or damaged tail is dropped (and kept aside) when the outbox opens; what came before stays, and writing goes on", arguments: Damage.allCases)
    func damagedTail(_ damage: Damage) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/outbox.log"
            let outbox = try Outbox(path: path, account: Self.account)
            let workouts = (0..<3).map { Self.workout("#\($0)") }
            for workout in workouts { try outbox.enqueue(.logWorkout(workout)) }
            outbox.close()
            try damage.apply(to: path)

            let reopened = try Outbox(path: path, account: Self.account)
            let kept = damage.losesLastRecord ? 2 : 3
            #expect(reopened.entries.map(\.write) == workouts.prefix(kept).map { .logWorkout($0) })
            #expect(reopened.droppedBytesAtOpen > 0)
            #expect(FileManager.default.fileExists(atPath: path + ".damaged"))
            let fourth = Self.workout("#3")
            try reopened.enqueue(.logWorkout(fourth))
            reopened.close()

            let third = try Outbox(path: path, account: Self.account)
            #expect(third.droppedBytesAtOpen == 0)
            #expect(third.entries.map(\.write).last == .logWorkout(fourth))
            #expect(third.count == kept + 1)
        }
    }

    @Test("A log cut at every byte reads as the records before the cut; a sample of cut files opens without a crash")
    func everyCut() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/outbox.log"
            let outbox = try Outbox(path: path, account: Self.account)
            for index in 0..<3 { try outbox.enqueue(.logWorkout(Self.workout("#\(index)"))) }
            outbox.close()
            let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let (all, goodLength) = OutboxLog.records(in: whole)
            #expect(all.count == 4, "the header and three writes")
            #expect(goodLength == whole.count)
            // Where each record ends.
            var ends: [Int] = []
            var end = OutboxLog.magic.count
            for (_, size) in all {
                end += 8 + size
                ends.append(end)
            }
            for length in OutboxLog.magic.count...whole.count {
                let (records, good) = OutboxLog.records(in: Array(whole.prefix(length)))
                let whole = ends.filter { $0 <= length }
                #expect(records.count == whole.count, "cut at \(length)")
                #expect(good == (whole.last ?? OutboxLog.magic.count), "cut at \(length)")
            }
            // Through the outbox, as files: in the magic, in the header, on each boundary, and
            // inside each write.
            var lengths = [0, 3, OutboxLog.magic.count, OutboxLog.magic.count + 5, whole.count]
            for end in ends { lengths += [end - 1, end, end + 3] }
            var counts: [Int: Int] = [:]
            for length in Set(lengths) where length <= whole.count {
                let cut = directory + "/cut-\(length).log"
                try Data(whole.prefix(length)).write(to: URL(fileURLWithPath: cut))
                let opened = try Outbox(path: cut, account: Self.account)
                counts[length] = opened.count
                #expect(opened.droppedBytesAtOpen == (length <= OutboxLog.magic.count ? 0 : length - ((ends.filter { $0 <= length }.last) ?? OutboxLog.magic.count)), "cut at \(length)")
                try opened.enqueue(.deleteWorkout(UUID()))
                opened.close()
                #expect(try Outbox(path: cut, account: Self.account).count == counts[length]! + 1, "writing goes on after the cut at \(length)")
            }
            #expect(counts[whole.count] == 3)
            #expect(counts[ends[1] - 1] == 0)
            #expect(counts[ends[2]] == 2)
        }
    }

    @Test("A file that is not an outbox is refused and left as it was")
    func notAnOutbox() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/notes.txt"
            let text = Data("shopping list: oats, bananas\n".utf8)
            try text.write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: WorkoutError.self) { try Outbox(path: path, account: Self.account) }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("not an outbox") == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        }
    }

    @Test("The writes past the count bound are refused with RESOURCE_EXHAUSTED; folding and discarding still work")
    func countBound() throws {
        try withTemporaryDirectory { directory in
            let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account, limits: .init(maxWrites: 3))
            let workouts = (0..<3).map { Self.workout("#\($0)") }
            for workout in workouts { try outbox.enqueue(.logWorkout(workout)) }
            let error = #expect(throws: WorkoutError.self) { try outbox.enqueue(.logWorkout(Self.workout("#3"))) }
            #expect(error?.code == .resourceExhausted)
            #expect(error?.message.contains("the outbox is full") == true)
            #expect(outbox.count == 3)
            // An edit of a waiting write adds nothing, so it is fine at the bound.
            var edited = workouts[1]
            edited.notes = "edited"
            #expect(try outbox.enqueue(.updateWorkout(edited, expectedRevision: nil)) == .folded(into: OutboxEntry(id: 2, write: .logWorkout(edited), queuedAt: outbox.entries[1].queuedAt)))
            try outbox.discard(1)
            try outbox.enqueue(.logWorkout(Self.workout("#3")))
            #expect(outbox.count == 3)
        }
    }

    @Test("The writes past the byte bound are refused with RESOURCE_EXHAUSTED, and nothing of them is stored")
    func byteBound() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/outbox.log"
            let outbox = try Outbox(path: path, account: Self.account, limits: .init(maxBytes: 4096))
            let notes = String(repeating: "n", count: 990)
            var queued = 0
            var refusal: WorkoutError?
            for index in 0..<10 {
                do throws(WorkoutError) {
                    try outbox.enqueue(.logWorkout(Self.workout("\(index) \(notes)")))
                    queued += 1
                } catch {
                    refusal = error
                    break
                }
            }
            #expect(refusal?.code == .resourceExhausted)
            #expect((2...3).contains(queued), "about 1.3 KB a write against 4 KiB")
            #expect(outbox.bytes <= 4096)
            outbox.close()
            #expect(try Outbox(path: path, account: Self.account).count == queued)
        }
    }

    @Test("One process at a time: a second opening waits for the lock, then says the outbox is in use")
    func lock() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/outbox.log"
            let first = try Outbox(path: path, account: Self.account)
            let error = #expect(throws: WorkoutError.self) { try Outbox(path: path, account: Self.account, lockTimeout: .milliseconds(50)) }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("in use") == true)
            first.close()
            _ = try Outbox(path: path, account: Self.account, lockTimeout: .milliseconds(50))
        }
    }

    @Test("An outbox holding one account's writes is not opened for another")
    func otherAccount() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/outbox.log"
            try Outbox(path: path, account: Self.account).enqueue(.logWorkout(Self.workout()))
            let error = #expect(throws: WorkoutError.self) { try Outbox(path: path, account: "bob@example.com on 127.0.0.1:7420") }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("holds writes of \(Self.account)") == true)
        }
    }
}
