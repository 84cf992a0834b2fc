import ClientTestSupport
import Dispatch
import ServerTestSupport
import Foundation
import Synchronization
import TestSupport
import Testing
import WorkoutClient
import WorkoutImport

/// An import whose server goes away halfway (issue 44's C8): it says what was stored, and the
/// same import run again stores the rest and nothing twice.
@Suite("An import the server stops")
struct ImportInterruptedTests {
    @Test("The server stops after some batches: ImportInterrupted says what was stored; run again, the rest comes in and the stored part is unchanged")
    func serverStopsHalfway() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/history.csv"
            let total = 3_000
            var text = "#workout,time,type,minutes,calories\n"
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let formatter = ISO8601DateFormatter()
            for index in 0..<total {
                text += "workout,\(formatter.string(from: start.addingTimeInterval(Double(index) * 3_600))),running,30,280\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try await LiveServer.run { live in
                // A client that gives up at once when the server is gone, as the CLI's does.
                let client = live.client(reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20), maximumAttempts: 1))
                _ = try await client.login(email: ownerEmail, password: ownerPassword)
                let batches = Atomic(0)
                // After the second batch (of 30) the import waits, bounded, for the test to stop
                // the server: a gate the test holds, signalled both ways, not a race.
                let (reached, reachedSignal) = AsyncStream<Void>.makeStream()
                let released = DispatchSemaphore(value: 0)
                let session = ImportSession(source: try ImportSources.open(path: path, format: .csv), options: ImportOptions(recordsPerBatch: 100))
                let running = Task { () -> Result<ImportReport, any Error> in
                    do {
                        return .success(try await session.run(client: client) { _ in
                            guard batches.add(1, ordering: .relaxed).newValue == 2 else { return }
                            reachedSignal.yield()
                            reachedSignal.finish()
                            _ = released.wait(timeout: .now() + 10)
                        })
                    } catch {
                        reachedSignal.finish()
                        return .failure(error)
                    }
                }
                for await _ in reached { break }
                await live.stop()
                released.signal()
                let outcome = await running.value
                guard case .failure(let failure) = outcome, let interrupted = failure as? ImportInterrupted else {
                    Issue.record("the import did not stop with ImportInterrupted: \(outcome)")
                    return
                }
                let stored = interrupted.report.recordsStored
                #expect(stored == 200, "two batches of 100 were stored: \(interrupted.report)")
                #expect(interrupted.report.stopped)
                #expect(interrupted.error.code == .unavailable, "\(interrupted.error)")

                // The server is back: the same import goes on where it stopped.
                try live.start()
                let again = live.client()
                _ = try await again.login(email: ownerEmail, password: ownerPassword)
                let rest = try await ImportSession(source: try ImportSources.open(path: path, format: .csv), options: ImportOptions(recordsPerBatch: 100))
                    .run(client: again)
                #expect(rest.unchanged == stored && rest.recordsStored == total - stored, "\(rest)")
                #expect(try await again.profile().totals.totalWorkouts == total)
            }
        }
    }
}
