import Foundation
import Testing
import TestSupport

/// `workoutd check-config`, run as a process.
@Suite("workoutd check-config")
struct CheckConfigTests {
    @Test("It prints every key's effective value, marking defaults, and the store's state")
    func printsEffectiveSettings() throws {
        try withTemporaryDirectory { path in
            try Data(#"{"host": "0.0.0.0", "port": 7500, "data_dir": "data", "limits": {"max_connections": 200}}"#.utf8)
                .write(to: URL(fileURLWithPath: path + "/w.json"))
            let result = try WorkoutdProcess.run(["check-config", "--config", path + "/w.json"])
            #expect(result.status == 0, "\(result)")
            let lines = result.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            for expected in [
                "configuration file \(path)/w.json", "host 0.0.0.0", "port 7500", "transport tls (default)", "data_dir \(path)/data",
                "backup_dir \(path)/data/backups (default)", "backup_keep_daily 7", "backup_keep_weekly 8",
                "limits.max_connections 200", "limits.max_connections_per_address 256 (default)",
                "limits.shutdown_grace_seconds 10 (default)", "limits.import_batches_per_minute 120 (default)", "store none yet (created on the first start or by create-owner)",
                "The configuration is valid.",
            ] {
                #expect(lines.contains(expected), "missing \"\(expected)\" in:\n\(result.output)")
            }
            #expect(!FileManager.default.fileExists(atPath: path + "/data"), "check-config creates nothing")
        }
    }

    @Test("A bad value is refused with exit code 1 and a message naming the key and its bound")
    func namesTheKey() throws {
        try withTemporaryDirectory { path in
            try Data(#"{"limits": {"shutdown_grace_seconds": 120}}"#.utf8).write(to: URL(fileURLWithPath: path + "/w.json"))
            let result = try WorkoutdProcess.run(["check-config", "--config", path + "/w.json"])
            #expect(result.status == 1, "\(result)")
            #expect(result.error == "workoutd: error: \"limits.shutdown_grace_seconds\" in \(path)/w.json must be a number of seconds above 0, at most 60 s (got 120)\n", "\(result)")
            // serve refuses the same file the same way, before it opens anything.
            let serve = try WorkoutdProcess.run(["serve", "--config", path + "/w.json", "--port", "0"])
            #expect(serve.status == 1 && serve.error.contains("\"limits.shutdown_grace_seconds\""), "\(serve)")
        }
    }

    @Test("A bad transport is refused by check-config and serve, naming the key and its values; a good one is printed")
    func transport() throws {
        try withTemporaryDirectory { path in
            try Data(#"{"transport": "plaintext", "data_dir": "d"}"#.utf8).write(to: URL(fileURLWithPath: path + "/w.json"))
            let expected = "\"transport\" in \(path)/w.json must be tls, plain or plain-network (got \"plaintext\")"
            let check = try WorkoutdProcess.run(["check-config", "--config", path + "/w.json"])
            #expect(check.status == 1 && check.error == "workoutd: error: \(expected)\n", "\(check)")
            let serve = try WorkoutdProcess.run(["serve", "--config", path + "/w.json", "--port", "0"])
            #expect(serve.status == 1 && serve.error.contains(expected), "\(serve)")
            #expect(!FileManager.default.fileExists(atPath: path + "/d"), "nothing is created for a bad configuration")

            try Data(#"{"transport": "plain-network", "data_dir": "d"}"#.utf8).write(to: URL(fileURLWithPath: path + "/w.json"))
            let good = try WorkoutdProcess.run(["check-config", "--config", path + "/w.json"])
            let lines = good.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            #expect(good.status == 0 && lines.contains("transport plain-network"), "\(good)")
            let flag = try WorkoutdProcess.run(["check-config", "--config", path + "/w.json", "--transport", "tls"])
            let flagLines = flag.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            #expect(flag.status == 0 && flagLines.contains("transport tls"), "--transport wins over the file: \(flag)")

            // Plain TCP on every address: check-config refuses what serve would, with serve's words.
            try Data(#"{"transport": "plain", "host": "0.0.0.0", "data_dir": "d"}"#.utf8).write(to: URL(fileURLWithPath: path + "/w.json"))
            let open = try WorkoutdProcess.run(["check-config", "--config", path + "/w.json"])
            #expect(open.status == 1 && open.error.contains("plain TCP on 0.0.0.0") && open.error.contains("would send passwords"), "\(open)")
            let served = try WorkoutdProcess.run(["serve", "--config", path + "/w.json", "--port", "0"])
            #expect(served.status != 0 && served.error.contains("plain TCP on 0.0.0.0"), "\(served)")
            // On loopback plain TCP passes both.
            try Data(#"{"transport": "plain", "host": "127.0.0.1", "data_dir": "d"}"#.utf8).write(to: URL(fileURLWithPath: path + "/w.json"))
            #expect(try WorkoutdProcess.run(["check-config", "--config", path + "/w.json"]).status == 0)
        }
    }

    @Test("serve refuses limits.max_connections that the open-file limit cannot hold, naming the key")
    func fileDescriptorLimit() throws {
        try withTemporaryDirectory { path in
            try Data(#"{"limits": {"max_connections": 65536}}"#.utf8).write(to: URL(fileURLWithPath: path + "/w.json"))
            // Run under a hard limit of 4096 descriptors, as a unit with LimitNOFILE=4096 would.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { return print("skipped: prlimit is not installed") }
            let binary = try #require(WorkoutdProcess.binary)
            let result = try ProcessRunnerShim.run("/usr/bin/prlimit", ["--nofile=1024:4096", binary, "serve", "--config", path + "/w.json", "--data-dir", path + "/d", "--port", "0"])
            #expect(result.status == 1, "\(result)")
            #expect(result.error.contains("limits.max_connections is 65536, which needs 65600 file descriptors; this process may open at most 4096"), "\(result)")
        }
    }
}
