import Foundation
import ProcessTestSupport
import Testing
import TestSupport
@testable import workoutd

/// The systemd units in `deploy/systemd`, checked by systemd itself.
@Suite("deploy/systemd units pass systemd-analyze")
struct SystemdUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"

    /// Copies of the installed units whose binary paths point into the throwaway root (what a
    /// DESTDIR install means), so `systemd-analyze verify` finds the executables.
    static func unitsPointingInto(_ root: String, scratch: String) throws -> [String] {
        try DeployFixture.units.map { unit in
            let text = try String(contentsOfFile: root + "/etc/systemd/system/" + unit, encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/", with: root + "/usr/local/bin/")
            let path = scratch + "/" + unit
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// `systemd-analyze verify` on `paths`; the lines it printed about them (none means clean).
    static func verify(_ paths: [String]) throws -> (status: Int32, complaints: [String]) {
        let result = try ProcessRunner.run(analyze, ["verify"] + paths, timeout: 60)
        let lines = (result.output + result.error).split(separator: "\n").map(String.init)
        let names = paths.map { ($0 as NSString).lastPathComponent }
        return (result.status, lines.filter { line in names.contains { line.contains($0) } })
    }

    @Test("systemd-analyze verify finds nothing to say about any unit, as installed")
    func verifyInstalledUnits() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.analyze) else {
            return print("skipped: systemd-analyze is not installed (scripts/install-system-packages installs Debian's systemd package)")
        }
        if let reason = DeployFixture.skipReason { return print("skipped: \(reason)") }
        try await DeployFixture.withInstalledRoot { root, _ in
            try withTemporaryDirectory { scratch in
                let paths = try Self.unitsPointingInto(root, scratch: scratch)
                let (status, complaints) = try Self.verify(paths)
                #expect(status == 0)
                #expect(complaints.isEmpty, "systemd-analyze verify:\n\(complaints.joined(separator: "\n"))")

                // The check has teeth: a misspelt key and a bad type are reported.
                let broken = scratch + "/broken.service"
                let text = try String(contentsOfFile: paths[0], encoding: .utf8)
                    .replacingOccurrences(of: "ProtectSystem=strict", with: "ProtectSytem=strict")
                    .replacingOccurrences(of: "Type=notify", with: "Type=notifyy")
                try Data(text.utf8).write(to: URL(fileURLWithPath: broken))
                #expect(try Self.verify([broken]).complaints.count >= 2)
            }
        }
    }

    @Test("systemd-analyze security rates workoutd.service OK or better, and the backup service too")
    func exposure() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.analyze) else {
            return print("skipped: systemd-analyze is not installed")
        }
        if let reason = DeployFixture.skipReason { return print("skipped: \(reason)") }
        try await DeployFixture.withInstalledRoot { root, _ in
            try withTemporaryDirectory { scratch in
                let paths = try Self.unitsPointingInto(root, scratch: scratch)
                for path in paths where path.hasSuffix(".service") {
                    let result = try ProcessRunner.run(Self.analyze, ["security", "--offline=true", "--no-pager", path], timeout: 60)
                    let verdict = try #require(result.output.split(separator: "\n").last { $0.contains("Overall exposure level") }, "\(result)")
                    print("systemd-analyze security \((path as NSString).lastPathComponent): \(verdict)")
                    let level = try #require(verdict.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
                    #expect(level <= 2.0, "\(verdict)")
                    #expect(verdict.contains("OK") || verdict.contains("SAFE"), "\(verdict)")
                }
            }
        }
    }

    @Test("The server unit has what the issue asks for: a user, the hardening, readiness, and a stop timeout above the grace period")
    func serverUnitSettings() throws {
        let unit = try String(contentsOfFile: DeployFixture.deployDirectory + "/systemd/workoutd.service", encoding: .utf8)
        let settings = Set(unit.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0.contains("=") })
        for expected in [
            "User=workoutd", "Group=workoutd", "Type=notify", "ProtectSystem=strict", "ProtectHome=true", "PrivateTmp=true",
            "PrivateDevices=true", "NoNewPrivileges=true", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
            "ReadWritePaths=/var/lib/workoutd", "Restart=on-failure", "KillSignal=SIGTERM", "TimeoutStopSec=90",
            "LimitNOFILE=8192", "WantedBy=multi-user.target",
        ] {
            #expect(settings.contains(expected), "workoutd.service lacks \(expected)")
        }
        // TimeoutStopSec must exceed the largest grace period a configuration may set.
        guard case .seconds(let grace) = ConfigurationKey.named("limits.shutdown_grace_seconds").bound else { Issue.record("no bound"); return }
        #expect(90 > grace.upperBound + 15)
        // LimitNOFILE holds the default connection limit and the reserve.
        #expect(8192 >= 1024 + 64)
        let timer = try String(contentsOfFile: DeployFixture.deployDirectory + "/systemd/workoutd-backup.timer", encoding: .utf8)
        #expect(timer.contains("\nPersistent=true\n") && timer.contains("\nOnCalendar=*-*-* 03:15:00\n"))
        let backup = try String(contentsOfFile: DeployFixture.deployDirectory + "/systemd/workoutd-backup.service", encoding: .utf8)
        #expect(backup.contains("\nExecStart=/usr/local/bin/workoutd backup --scheduled --config /etc/workoutd/workoutd.json\n"))
    }
}
