import Foundation
import Testing
import WorkoutBenchKit
import WorkoutProtocol

/// The JSON report and the table a person reads.
@Suite("Report")
struct ReportTests {
    static func outcome(withStats: Bool) -> LoadOutcome {
        var outcome = LoadOutcome()
        for microseconds in 1...1_000 { outcome.latency.record(nanoseconds: UInt64(microseconds) * 1_000) }
        outcome.ops = 1_000
        outcome.windowSeconds = 2
        outcome.errors.record(status: StatusCode.notFound.rawValue, count: 3, message: "you have no workout with this id")
        outcome.clientCPUMicroseconds = 4_000
        outcome.probedMeals = 10
        if withStats {
            var before = Workout_V1_StatsResponse()
            before.processCpuUs = 1_000
            before.commits = 5
            before.writeOperations = 5
            var after = before
            var method = Workout_V1_MethodStats()
            method.method = 307
            method.calls = 1_000
            after.methods = [method]
            after.processCpuUs = 21_000
            after.commits = 105
            after.writeOperations = 1_005
            after.rssAnonBytes = 30 << 20
            after.rssBytes = 50 << 20
            outcome.statsBefore = before
            outcome.statsAfter = after
        }
        return outcome
    }

    static func report(withStats: Bool, scenario: String = "log-weight") -> BenchReport {
        BenchReport(
            scenario: scenario, server: "embedded", connections: 64, pipeline: 1, rate: nil, idleConnections: 0, users: 100,
            preloadPerUser: 3_650, preloadSeconds: 4.2, warmupSeconds: 1, compression: false, outcome: outcome(withStats: withStats))
    }

    /// The keys the issue requires, at least.
    static let requiredKeys = [
        "scenario", "connections", "pipeline", "duration_s", "ops", "ops_per_s", "p50_us", "p90_us", "p99_us", "p999_us", "max_us",
        "errors", "commits", "ops_per_commit", "server_cpu_us_per_op", "rss_anon_bytes",
    ]

    @Test("The JSON object has every required key, figures computed from the window and the server's Stats")
    func jsonShape() throws {
        let data = try Self.report(withStats: true).json()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in Self.requiredKeys { #expect(object[key] != nil, "missing \(key)") }
        #expect(object["scenario"] as? String == "log-weight")
        #expect(object["ops"] as? Int == 1_000)
        #expect(object["ops_per_s"] as? Double == 500)
        #expect((object["errors"] as? [String: Int]) == ["NOT_FOUND": 3])
        #expect(object["commits"] as? Int == 100)
        #expect(object["ops_per_commit"] as? Double == 10)
        #expect(object["server_cpu_us_per_op"] as? Double == 20)
        #expect(object["rss_anon_bytes"] as? Int == 30 << 20)
        #expect(object["client_cpu_us_per_op"] as? Double == 4)
        #expect(abs((object["p50_us"] as? Double ?? 0) - 500) <= 1)
        #expect(abs((object["p999_us"] as? Double ?? 0) - 999) <= 1)
        #expect(object["probe_meals"] as? Int == 10)
    }

    @Test("Without Stats the server's figures are present as null; the report decodes back to itself")
    func nullsAndRoundTrip() throws {
        let report = Self.report(withStats: false, scenario: "household")
        let data = try report.json()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in Self.requiredKeys { #expect(object.keys.contains(key), "missing \(key)") }
        for key in ["commits", "ops_per_commit", "server_cpu_us_per_op", "rss_anon_bytes", "rate"] {
            #expect(object[key] is NSNull, "\(key) should be null")
        }
        #expect(object["cycles"] as? Int == 0)
        let decoded = try JSONDecoder().decode(BenchReport.self, from: data)
        #expect(decoded.ops == report.ops && decoded.errors == report.errors && decoded.commits == nil)
    }

    @Test("A soak's report holds one object per minute and the first-versus-last summary; other runs have both null")
    func soakShape() throws {
        var outcome = Self.outcome(withStats: true)
        outcome.soakMinutes = (1...20).map {
            SoakSummaryTests.minute($0, rssAnon: 40 << 20, descriptors: 52, p99: $0 <= 10 ? 2_000 : 2_100, rss: 80 << 20, store: 64 << 20)
        }
        let report = BenchReport(
            scenario: "household", server: "embedded", connections: 32, pipeline: 1, rate: 400, idleConnections: 0, users: 32,
            preloadPerUser: 3_650, preloadSeconds: 4.2, warmupSeconds: 10, compression: false, outcome: outcome)
        let object = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        let minutes = try #require(object["soak"] as? [[String: Any]])
        #expect(minutes.count == 20)
        let minuteKeys = [
            "minute", "calls", "errors", "rounds", "logins", "watch_events", "p50_us", "p99_us", "max_us", "rss_anon_bytes",
            "rss_bytes", "open_descriptors", "open_connections", "store_size_bytes", "store_used_bytes", "process_cpu_us",
            "server_cpu_percent", "shed_connections", "incomplete_frame_bytes",
        ]
        #expect(Set(minutes[0].keys) == Set(minuteKeys))
        #expect(minutes[0]["minute"] as? Int == 1 && minutes[19]["open_descriptors"] as? Int == 52)
        let summary = try #require(object["soak_summary"] as? [String: Any])
        #expect(Set(summary.keys) == ["flat", "minutes_compared", "rss_anon_bytes", "rss_bytes", "open_descriptors", "store_size_bytes", "p99_us"])
        #expect(summary["flat"] as? Bool == true && summary["minutes_compared"] as? Int == 10)
        let p99 = try #require(summary["p99_us"] as? [String: Any])
        #expect(p99["first"] as? Double == 2_000 && p99["last"] as? Double == 2_100 && p99["ratio"] as? Double == 1.05 && p99["flat"] as? Bool == true)
        let table = ReportTable.render(report)
        #expect(table.contains("p99 2000.0 → 2100.0 µs (×1.050, flat)"))
        #expect(table.contains("verdict: flat"))
        let decoded = try JSONDecoder().decode(BenchReport.self, from: report.json())
        #expect(decoded.soak == report.soak && decoded.soakSummary == report.soakSummary)

        let plain = try #require(try JSONSerialization.jsonObject(with: Self.report(withStats: true).json()) as? [String: Any])
        #expect(plain["soak"] is NSNull && plain["soak_summary"] is NSNull)
    }

    @Test("A soak's minute line shows its calls, percentiles and the server's figures")
    func soakLine() {
        var minute = SoakSummaryTests.minute(3, rssAnon: 40 << 20, descriptors: 52, p99: 4_210, rss: 180 << 20, store: 96 << 20)
        minute.calls = 21_000
        minute.serverCPUPercent = 48.1
        let line = SoakProgressLine.render(minute, of: 60)
        #expect(line.hasPrefix("[minute  3/60]   21,000 calls"))
        #expect(line.contains("p99 4210.0 µs") && line.contains("RSS anon 40.0 MiB (all 180.0 MiB)") && line.contains("fds 52"))
        #expect(line.contains("store 96.0 MiB") && line.hasSuffix("cpu 48.1 %"))
    }

    @Test("The table shows throughput, percentiles, errors with their first message, and the server's figures")
    func table() {
        let text = ReportTable.render(Self.report(withStats: true))
        #expect(text.contains("workout-bench log-weight: 64 connections × 1 in flight"))
        #expect(text.contains("1,000 calls, 500 calls/s"))
        #expect(text.contains("p50 500.") && text.contains("p99.9 999."))
        #expect(text.contains("NOT_FOUND × 3 (first: you have no workout with this id)"))
        #expect(text.contains("20.0 µs CPU per call, 10.0 writes per commit (100 commits), RSS anon 30.0 MiB"))
        #expect(ReportTable.render(Self.report(withStats: false)).contains("no figures"))
    }

    @Test("The progress line shows the phase, calls per second, p99 and errors")
    func progressLine() {
        let line = ProgressLine.render(ProgressSample(
            phase: "measure", elapsedSeconds: 3, opsPerSecond: 81_234.4, p99Microseconds: 1_234.56, errors: 2, note: ""))
        #expect(line == "[   3.0 s] measure      81,234 calls/s  p99    1234.6 µs  errors 2")
        let setup = ProgressLine.render(ProgressSample(
            phase: "setup", elapsedSeconds: 1, opsPerSecond: 0, p99Microseconds: 0, errors: 0, note: "3/64 load connections logged in"))
        #expect(setup.hasSuffix("setup    3/64 load connections logged in"))
    }
}
