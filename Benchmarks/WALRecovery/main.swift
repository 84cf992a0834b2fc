// workout-wal-bench: how long a store takes to open after a crash left its write-ahead log
// holding N MiB of records, and the opening's peak memory (Benchmarks/README.md).
//
//   workout-wal-bench --log-mib 64 [--rounds 5]
//
// A child process writes weigh-in-sized transactions (one put of 700 bytes each) with the
// background checkpoints out of reach until the log holds N MiB, then kills itself (SIGKILL: no
// closing checkpoint). Each round copies the crashed directory (new inodes, as `cp -a` does)
// and opens the copy in a child process of its own, which reports the opening's time, the
// transactions replayed, its peak resident memory (getrusage's ru_maxrss, which counts the
// pages of the mapped store file it touched) and its anonymous memory after the replay
// (RssAnon: the heap, what recovery itself holds).
import Foundation
import LMDB
#if canImport(Glibc)
import Glibc
#endif

/// The configuration the writer and the opening share: a log, checkpoints out of reach.
func configuration() -> Environment.Configuration {
    var configuration = Environment.Configuration()
    configuration.writeAheadLog = true
    configuration.writeAheadLogCheckpointCommits = .max
    configuration.writeAheadLogCheckpointBytes = .max
    configuration.writeAheadLogCeilingBytes = 1 << 40
    return configuration
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("workout-wal-bench: \(message)\n".utf8))
    exit(1)
}

/// The child that writes until the log holds `mebibytes`, then dies without a checkpoint.
func write(into directory: String, mebibytes: Int) throws -> Never {
    let environment = try Environment(path: directory, configuration: configuration())
    let things = try environment.openDatabase(named: "weights")
    let value = [UInt8](repeating: 0x5A, count: 700)
    var logged = 0
    var index: UInt64 = 0
    while logged < mebibytes << 20 {
        index += 1
        let key = withUnsafeBytes(of: index.bigEndian) { Array($0) }
        try environment.write { txn throws in try txn.put(value, forKey: key, in: things) }
        logged += 32 + 700 + key.count + 16
    }
    FileHandle.standardOutput.write(Data("wrote \(index) transactions\n".utf8))
    kill(getpid(), SIGKILL)
    exit(0)
}

/// The child that opens the crashed copy and reports.
func open(_ directory: String) throws -> Never {
    let started = DispatchTime.now().uptimeNanoseconds
    let environment = try Environment(path: directory, configuration: configuration())
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
    let replayed = environment.replayedTransactions
    // Anonymous memory (heap, not the mapped store file) right after the replay.
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let anonymous = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") }
        .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
    environment.close()
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    print("open_ms=\(String(format: "%.1f", elapsed)) replayed=\(replayed) maxrss_kib=\(usage.ru_maxrss) rss_anon_kib=\(anonymous)")
    exit(0)
}

/// Runs this executable with `arguments`; returns what it printed.
func child(_ arguments: [String], allowingKill: Bool = false) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    guard (process.terminationReason == .exit && process.terminationStatus == 0) || (allowingKill && killed) else {
        fail("\(arguments.joined(separator: " ")) ended with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func value(_ name: String, in line: String) -> Double? {
    line.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap { Double($0.dropFirst(name.count + 1)) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

do {
    if let directory = option("--write") { try write(into: directory, mebibytes: Int(option("--log-mib") ?? "4") ?? 4) }
    if let directory = option("--open") { try open(directory) }
    guard let mebibytes = Int(option("--log-mib") ?? "4"), (1...1_024).contains(mebibytes) else { fail("--log-mib takes 1 to 1024") }
    guard let rounds = Int(option("--rounds") ?? "5"), (1...50).contains(rounds) else { fail("--rounds takes 1 to 50") }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("wal-bench-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: work) }
    let crashed = work + "/crashed"
    try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
    let wrote = try child(["--write", crashed, "--log-mib", String(mebibytes)], allowingKill: true)
    let logBytes = try ["wal-0", "wal-1"].reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: crashed + "/" + $1)[.size] as? Int) ?? 0) }
    print("\(wrote.trimmingCharacters(in: .newlines)); log files \(logBytes >> 20) MiB")
    var times: [Double] = []
    var memory: [Double] = []
    var anonymous: [Double] = []
    for round in 1...rounds {
        let copy = work + "/copy-\(round)"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: crashed) {
            try FileManager.default.copyItem(atPath: crashed + "/" + name, toPath: copy + "/" + name)
        }
        let line = try child(["--open", copy]).trimmingCharacters(in: .newlines)
        print("round \(round): \(line)")
        guard let time = value("open_ms", in: line), let rss = value("maxrss_kib", in: line),
              let anon = value("rss_anon_kib", in: line)
        else { fail("unreadable: \(line)") }
        times.append(time)
        memory.append(rss)
        anonymous.append(anon)
        try FileManager.default.removeItem(atPath: copy)
    }
    print("log \(mebibytes) MiB: open median \(String(format: "%.1f", median(times))) ms, peak RSS median \(String(format: "%.1f", median(memory) / 1_024)) MiB (with the mapped store), anonymous median \(String(format: "%.1f", median(anonymous) / 1_024)) MiB, over \(rounds) rounds")
} catch {
    fail("\(error)")
}
