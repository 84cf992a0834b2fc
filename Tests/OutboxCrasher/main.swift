// workout-outbox-crasher: queues writes into an outbox, or syncs one, to be killed at random
// moments by the outbox's crash test (see README.md).

import Foundation
import WorkoutClient
import WorkoutOffline

/// The workout number `index` of the crash test: its id and content follow from the index, so
/// every run (and the test) makes the very same one.
func crashWorkout(_ index: Int, baseMilliseconds: Int64) -> Workout {
    Workout(
        id: UUID(uuidString: String(format: "00000000-0000-7000-8000-%012x", index))!,
        type: "running", durationSeconds: 600, caloriesBurned: 100,
        performedAt: Date(timeIntervalSince1970: Double(baseMilliseconds) / 1000 + Double(index) * 60),
        timeZone: "Europe/Berlin", notes: "crash test #\(index)")
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("workout-outbox-crasher: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count == 6 else { fail("usage: see Tests/OutboxCrasher/README.md", status: 64) }
let (mode, path, account) = (arguments[1], arguments[2], arguments[3])

switch mode {
case "write":
    guard let count = Int(arguments[4]), let base = Int64(arguments[5]) else { fail("COUNT and BASE_MS are numbers", status: 64) }
    do {
        let outbox = try Outbox(path: path, account: account)
        FileHandle.standardError.write(Data("opened: \(outbox.count) writes, dropped \(outbox.droppedBytesAtOpen) bytes\n".utf8))
        let entries = outbox.entries
        for (index, entry) in entries.enumerated() where entry.write.recordID != crashWorkout(index, baseMilliseconds: base).id {
            fail("entry \(index) of the outbox is \(entry.write.summary), not workout #\(index)", status: 3)
        }
        for index in entries.count..<count {
            try outbox.enqueue(.logWorkout(crashWorkout(index, baseMilliseconds: base)))
        }
        outbox.close()
        print("queued \(count)")
    } catch {
        fail("\(error)")
    }

case "sync":
    guard let address = ServerAddress(arguments[4]), let token = SessionToken(base64: arguments[5]) else {
        fail("HOST:PORT and a base64 TOKEN", status: 64)
    }
    let client = WorkoutClient(
        configuration: .init(
            address: address, deviceName: "outbox crash test", callTimeout: .seconds(20),
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(500), maximumAttempts: 10),
            transportSecurity: .plainTCP()),
        sessionToken: token)
    let outbox: Outbox
    do {
        outbox = try Outbox(path: path, account: account)
    } catch {
        fail("\(error)")
    }
    FileHandle.standardError.write(Data("opened: \(outbox.count) writes, dropped \(outbox.droppedBytesAtOpen) bytes\n".utf8))
    let report = await outbox.sync(using: client)
    var sent = 0
    var replayed = 0
    var refused = 0
    for result in report.results {
        switch result.outcome {
        case .sent(let answer):
            sent += 1
            if answer.replayed { replayed += 1 }
        case .refused: refused += 1
        case .held: break
        }
    }
    let stop = report.stoppedBy.map { "\"\($0.code.name)\"" } ?? "null"
    print("{\"sent\": \(sent), \"replayed\": \(replayed), \"refused\": \(refused), \"remaining\": \(report.remaining.count), \"stoppedBy\": \(stop)}")
    outbox.close()
    client.close()
    exit(report.isComplete ? 0 : 2)

default:
    fail("unknown mode \(mode)", status: 64)
}
