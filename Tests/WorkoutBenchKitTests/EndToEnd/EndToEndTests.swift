import Foundation
import Testing
import WorkoutBenchKit

/// `workout-bench` run as a process against a real `workoutd` child: tiny, bounded runs.
@Suite("End to end", .serialized)
struct EndToEndTests {
    /// A fresh path for a JSON report.
    static func reportPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bench-report-\(UUID().uuidString).json").path
    }

    @Test("A tiny meals-day run (2 members × 20 meals, 1 s) against a workoutd child answers every call and writes the JSON report", .timeLimit(.minutes(1)))
    func tinyRun() throws {
        let json = Self.reportPath()
        defer { try? FileManager.default.removeItem(atPath: json) }
        let result = try BenchProcess.run([
            "--scenario", "meals-day", "--users", "2", "--preload", "20", "--connections", "2", "--pipeline", "2",
            "--duration", "1", "--warmup", "0.2", "--json", json, "--workoutd", try BenchProcess.product("workoutd"),
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.seconds < 30, "\(result)")
        #expect(result.output.contains("workout-bench meals-day: 2 connections × 2 in flight"), "\(result)")
        #expect(result.error.contains("measure"), "no progress line: \(result)")
        let report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report.scenario == "meals-day" && report.connections == 2 && report.pipeline == 2)
        #expect(report.ops > 10 && report.errors.isEmpty)
        #expect(report.opsPerSecond > 0 && report.p50Microseconds > 0 && report.p50Microseconds <= report.p99Microseconds)
        #expect(report.probeMeals == 10)
        #expect(report.preloadSeconds != nil)
        let cpu = try #require(report.serverCPUMicrosecondsPerOp)
        #expect(cpu > 0)
        #expect((report.rssAnonBytes ?? 0) > 1 << 20)
        // The server counts between its two Stats snapshots, the bench what it receives in the
        // window: they differ by at most the calls in flight at either end, and those the bench
        // counted while the first snapshot's answer was on its way (on a busy machine, many).
        let skew = try #require(report.opsBeforeServerStats)
        #expect(skew <= report.ops)
        #expect(abs(Int(report.serverCalls ?? 0) - Int(report.ops)) <= 2 * 2 * 2 + Int(skew))
    }

    @Test("A tiny open-loop write run (log-workout at 200 calls/s) sends at the rate and reports commits and writes per commit", .timeLimit(.minutes(1)))
    func tinyOpenLoopWriteRun() throws {
        let json = Self.reportPath()
        defer { try? FileManager.default.removeItem(atPath: json) }
        let result = try BenchProcess.run([
            "--scenario", "log-workout", "--users", "2", "--preload", "20", "--connections", "4", "--rate", "200",
            "--duration", "1", "--warmup", "0.2", "--quiet", "--json", json, "--workoutd", try BenchProcess.product("workoutd"),
        ])
        #expect(result.status == 0, "\(result)")
        let report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report.rate == 200 && report.errors.isEmpty)
        // The schedule, not the server, sets the pace: never more than 200 calls in the 1 s
        // window (a little over for the window's edges), fewer when the server or the machine
        // lags (how many fewer is the benchmark's to measure, not this test's).
        #expect(report.ops > 0 && report.ops <= 215, "\(report.ops) calls")
        #expect((report.commits ?? 0) > 0 && (report.opsPerCommit ?? 0) >= 1)
    }

    @Test("With --tls the embedded workoutd serves TLS and a tiny connect run (TLS handshake, Resume) answers every call", .timeLimit(.minutes(1)))
    func tinyTLSRun() throws {
        let json = Self.reportPath()
        defer { try? FileManager.default.removeItem(atPath: json) }
        let result = try BenchProcess.run([
            "--scenario", "connect", "--connect-auth", "resume", "--users", "2", "--preload", "4", "--connections", "2", "--tls",
            "--duration", "1", "--warmup", "0.2", "--quiet", "--json", json, "--workoutd", try BenchProcess.product("workoutd"),
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("embedded (TLS)"), "\(result)")
        let report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report.ops > 0 && report.errors.isEmpty, "\(result)")
    }

    @Test("An unknown scenario ends at once with a message and a non-zero status")
    func unknownScenario() throws {
        let result = try BenchProcess.run(["--scenario", "lift-weights"], timeout: 10)
        #expect(result.status != 0)
        #expect(result.error.contains("lift-weights") && result.error.contains("meals-day"), "\(result)")
    }

    @Test("An unreachable server ends quickly with a message and a non-zero status")
    func unreachableServer() throws {
        let result = try BenchProcess.run(["--server", "127.0.0.1:1", "--duration", "1"], timeout: 20)
        #expect(result.status != 0)
        #expect(result.error.contains("cannot connect to 127.0.0.1:1"), "\(result)")
        #expect(result.seconds < 10)
    }

    @Test("Wrong credentials end with the server's refusal and a non-zero status, never a hang", .timeLimit(.minutes(1)))
    func wrongCredentials() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("bench-creds-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let preload = try BenchProcess.run(["--data-dir", data, "--preload-only", "--users", "1", "--preload", "10", "--member-email", "solo@x.example"])
        #expect(preload.status == 0, "\(preload)")
        let result = try BenchProcess.run([
            "--data-dir", data, "--users", "1", "--preload", "10", "--member-email", "solo@x.example", "--password", "not the password",
            "--no-server-stats", "--duration", "1", "--workoutd", try BenchProcess.product("workoutd"),
        ], timeout: 30)
        #expect(result.status != 0)
        // 64 connections log in at once with the wrong password: the first refusal the bench
        // reports is the wrong password, or the login throttle that the failures set off.
        let refused = result.error.contains("logging in as solo@x.example failed: UNAUTHENTICATED")
            || result.error.contains("logging in as solo@x.example failed: RESOURCE_EXHAUSTED")
        #expect(refused, "\(result)")
    }
}
