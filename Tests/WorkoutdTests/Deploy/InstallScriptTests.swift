import Foundation
import ProcessTestSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `deploy/install.sh` run for real into a throwaway root: install, upgrade, the server started
/// as the unit starts it, a client signing in, uninstall and purge.
@Suite("deploy/install.sh into a throwaway root", .serialized)
struct InstallScriptTests {
    @Test("A first install puts every file in place with its mode and owner, enables the units and prints the next step")
    func firstInstall() async throws {
        if let reason = DeployFixture.skipReason { return print("skipped: \(reason)") }
        try await DeployFixture.withInstalledRoot { root, result in
            let user = try #require(try DeployFixture.serviceUser(in: root))
            #expect(user.line.hasSuffix(":Workout household server:/var/lib/workoutd:/usr/sbin/nologin"), "\(user.line)")
            #expect(user.uid != 0 && user.gid != 0)
            let expected: [(String, Int, UInt32, UInt32)] = [
                ("/usr/local/bin/workoutd", 0o755, 0, 0),
                ("/usr/local/bin/workout", 0o755, 0, 0),
                ("/usr/local/share/doc/workoutd/README.md", 0o644, 0, 0),
                ("/etc/workoutd", 0o750, 0, user.gid),
                ("/etc/workoutd/workoutd.json", 0o640, 0, user.gid),
                ("/etc/workoutd/workoutd.json.example", 0o644, 0, 0),
                ("/var/lib/workoutd", 0o700, user.uid, user.gid),
                ("/var/lib/workoutd/backups", 0o700, user.uid, user.gid),
                ("/etc/systemd/system/workoutd.service", 0o644, 0, 0),
                ("/etc/systemd/system/workoutd-backup.service", 0o644, 0, 0),
                ("/etc/systemd/system/workoutd-backup.timer", 0o644, 0, 0),
                ("/etc/avahi/services/workoutd.service", 0o644, 0, 0),
            ]
            for (path, mode, owner, group) in expected {
                let attributes = try DeployFixture.attributes(root + path)
                #expect(attributes.mode == mode, "\(path): mode \(String(attributes.mode, radix: 8))")
                #expect(attributes.owner == owner && attributes.group == group, "\(path): owner \(attributes.owner):\(attributes.group)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/usr/local/bin/workoutd"))
                    == Data(contentsOf: URL(fileURLWithPath: try #require(DeployFixture.binDirectory) + "/workoutd")))
            for link in ["multi-user.target.wants/workoutd.service", "timers.target.wants/workoutd-backup.timer"] {
                let target = try FileManager.default.destinationOfSymbolicLink(atPath: root + "/etc/systemd/system/" + link)
                #expect(target.hasSuffix("/etc/systemd/system/" + (link as NSString).lastPathComponent), "\(link) → \(target)")
            }
            // The configuration is the example with this installation's paths, and valid.
            let config = try String(contentsOfFile: root + "/etc/workoutd/workoutd.json", encoding: .utf8)
            #expect(config.contains(#""data_dir": "/var/lib/workoutd""#) && config.contains(#""host": "0.0.0.0""#))
            let check = try WorkoutdProcess.run(["check-config", "--config", root + "/etc/workoutd/workoutd.json"])
            #expect(check.status == 0, "\(check)")
            #expect(result.output.contains("Workout is installed. Next step: create the household's owner account"), "\(result)")
            #expect(result.output.contains(" /usr/local/bin/workoutd create-owner --config /etc/workoutd/workoutd.json --email you@example.com --first-name You"), "\(result)")
        }
    }

    /// Runs the installed `workoutd` in `root` as the service user, with `arguments`.
    static func asServiceUser(
        _ root: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:], timeout: Double = 60
    ) throws -> ProcessResult {
        let user = try #require(try DeployFixture.serviceUser(in: root))
        var variables = environment
        variables["WORKOUTD_DATA_DIR"] = root + "/var/lib/workoutd"
        return try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", root + "/usr/local/bin/workoutd"] + arguments,
            input: input, environment: variables, removing: ["WORKOUTD_", "NOTIFY_SOCKET"], in: root, timeout: timeout)
    }

    @Test("A second run upgrades in place: binaries replaced, configuration and data kept, modes and owners unchanged")
    func upgrade() async throws {
        if let reason = DeployFixture.skipReason { return print("skipped: \(reason)") }
        try await DeployFixture.withInstalledRoot { root, _ in
            let config = root + "/etc/workoutd/workoutd.json"
            let owner = try Self.asServiceUser(
                root, ["create-owner", "--config", config, "--email", "ada@example.com", "--first-name", "Ada", "--time-zone", "UTC", "--password-stdin"],
                input: "correct horse battery\n")
            #expect(owner.status == 0, "\(owner)")
            // A family changed the port; the data directory now holds the household.
            let edited = try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "\"port\": 7420", with: "\"port\": 7421")
            try Data(edited.utf8).write(to: URL(fileURLWithPath: config))
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/var/lib/workoutd/data.mdb"))
            let dataAttributes = try DeployFixture.attributes(root + "/var/lib/workoutd/data.mdb")

            let again = try DeployFixture.install(["--destdir", root, "--bin-dir", try #require(DeployFixture.binDirectory), "--no-start"])
            #expect(again.status == 0, "\(again)")
            #expect(again.output.contains("Upgrading Workout in \(root)"), "\(again)")
            #expect(again.output.contains("kept the configuration /etc/workoutd/workoutd.json"), "\(again)")
            #expect(again.output.contains("Workout is upgraded; the data in /var/lib/workoutd and the configuration were kept."), "\(again)")
            #expect(!again.output.contains("created the system user"), "\(again)")
            #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)
            #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/var/lib/workoutd/data.mdb")) == data)
            let after = try DeployFixture.attributes(root + "/var/lib/workoutd/data.mdb")
            #expect(after.owner == dataAttributes.owner && after.mode == dataAttributes.mode)
            #expect(try DeployFixture.attributes(root + "/var/lib/workoutd").mode == 0o700)
            #expect(try DeployFixture.attributes(root + "/etc/workoutd/workoutd.json").mode == 0o640)
            let passwd = try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)
            #expect(passwd.components(separatedBy: "\nworkoutd:").count == 2, "one workoutd user:\n\(passwd)")
            // The Avahi service follows the configured port.
            let avahi = try String(contentsOfFile: root + "/etc/avahi/services/workoutd.service", encoding: .utf8)
            #expect(avahi.contains("<port>7421</port>"), "\(avahi)")
            let members = try Self.asServiceUser(root, ["members", "--config", config])
            #expect(members.output.contains("ada@example.com"), "\(members)")
            // As root, the admin commands and restore refuse to write into the service user's
            // directory (root-owned files would stop the server), and say how to run them.
            for arguments in [["members"], ["restore", "--force", root + "/nowhere.tar.gz"]] {
                let asRoot = try WorkoutdProcess.run(
                    arguments + ["--config", config], environment: ["WORKOUTD_DATA_DIR": root + "/var/lib/workoutd"])
                #expect(asRoot.status == 3, "\(arguments): \(asRoot)")
                #expect(asRoot.error.contains("belongs to the user") && asRoot.error.contains("run the command as that user"), "\(asRoot)")
            }
        }
    }

    @Test("The installed configuration starts the installed workoutd as the unit's ExecStart does; it reports ready and the installed client signs in")
    func servesAsTheUnitStartsIt() async throws {
        if let reason = DeployFixture.skipReason { return print("skipped: \(reason)") }
        try await DeployFixture.withInstalledRoot { root, _ in
            let unit = try String(contentsOfFile: root + "/etc/systemd/system/workoutd.service", encoding: .utf8)
            let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
            let words = execStart.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
            #expect(words == ["/usr/local/bin/workoutd", "serve", "--config", "/etc/workoutd/workoutd.json"])
            #expect(unit.contains("\nUser=workoutd\n") && unit.contains("\nType=notify\n"))
            // Paths under the throwaway root; the address on loopback (the file's 0.0.0.0 is for
            // the LAN) and any free port, through the environment, which the file's values yield to.
            let config = root + words[3]
            let owner = try Self.asServiceUser(
                root, ["create-owner", "--config", config, "--email", "ada@example.com", "--first-name", "Ada", "--time-zone", "UTC", "--password-stdin"],
                input: "correct horse battery\n")
            #expect(owner.status == 0, "\(owner)")

            let user = try #require(try DeployFixture.serviceUser(in: root))
            let notify = try NotifySocket(address: root + "/tmp-notify")
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            server.arguments = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", root + words[0], words[1], words[2], config]
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUTD_") }
            environment["WORKOUTD_DATA_DIR"] = root + "/var/lib/workoutd"
            environment["WORKOUTD_HOST"] = "127.0.0.1"
            environment["WORKOUTD_PORT"] = "0"
            environment["NOTIFY_SOCKET"] = root + "/tmp-notify"
            server.environment = environment
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            chmod(root, 0o777)  // the notify socket is in the root; the service user must reach it
            chmod(root + "/tmp-notify", 0o777)
            try server.run()
            defer { if server.isRunning { server.terminate() } }
            let ready = try #require(notify.receive(), "the installed workoutd did not report ready within 30 s")
            chmod(root, 0o755)
            #expect(ready.hasPrefix("READY=1\n"), "\(ready)")
            let port = try #require(ready.split(separator: "\n")[1].split(separator: ":").last.flatMap { Int($0) })

            // The installed server speaks TLS with the key it made on its first start; the client
            // is given that key's fingerprint, as `workoutd fingerprint` prints it, and pins it.
            let fingerprint = try Self.asServiceUser(root, ["fingerprint", "--config", config])
            #expect(fingerprint.status == 0, "\(fingerprint)")
            try withTemporaryDirectory { home in
                let login = try ProcessRunner.run(
                    root + "/usr/local/bin/workout",
                    ["login", "--server", "127.0.0.1:\(port)", "--email", "ada@example.com", "--password-stdin"],
                    input: "correct horse battery\n",
                    environment: ["WORKOUT_CONFIG_DIR": home, "WORKOUT_SERVER_FINGERPRINT": fingerprint.output.trimmingCharacters(in: .whitespacesAndNewlines)],
                    removing: ["WORKOUT_"], timeout: 60)
                #expect(login.status == 0, "\(login)")
                #expect(login.output.contains("Signed in to 127.0.0.1:\(port) as Ada"), "\(login)")
                let whoami = try ProcessRunner.run(root + "/usr/local/bin/workout", ["whoami"], environment: ["WORKOUT_CONFIG_DIR": home], removing: ["WORKOUT_"], timeout: 60)
                #expect(whoami.status == 0 && whoami.output.contains("ada@example.com"), "\(whoami)")
            }
            kill(server.processIdentifier, SIGTERM)
            #expect(notify.receive()?.hasPrefix("STOPPING=1") == true)
            server.waitUntilExit()
            #expect(server.terminationStatus == 0)
            // Everything the server wrote belongs to the service user.
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/var/lib/workoutd") {
                #expect(try DeployFixture.attributes(root + "/var/lib/workoutd/" + name).owner == user.uid, "\(name)")
            }
        }
    }

    @Test("--uninstall removes binaries and units and keeps the data; --purge-data then removes data, configuration and user")
    func uninstall() async throws {
        if let reason = DeployFixture.skipReason { return print("skipped: \(reason)") }
        try await DeployFixture.withInstalledRoot { root, _ in
            let config = root + "/etc/workoutd/workoutd.json"
            #expect(try Self.asServiceUser(
                root, ["create-owner", "--config", config, "--email", "ada@example.com", "--first-name", "Ada", "--password-stdin"],
                input: "correct horse battery\n").status == 0)

            let refused = try DeployFixture.install(["--destdir", root, "--purge-data"])
            #expect(refused.status == 1 && refused.error.contains("it goes only with --uninstall"), "\(refused)")
            #expect(FileManager.default.fileExists(atPath: root + "/var/lib/workoutd/data.mdb"))

            let removed = try DeployFixture.install(["--destdir", root, "--uninstall"])
            #expect(removed.status == 0, "\(removed)")
            #expect(removed.output.contains("Kept the data in /var/lib/workoutd"), "\(removed)")
            // The purge hint acts on the staged root too: copied as printed, it never reaches this machine's.
            #expect(removed.output.contains("--uninstall --purge-data --destdir \(root)\n"), "\(removed)")
            for gone in ["/usr/local/bin/workoutd", "/usr/local/bin/workout", "/etc/avahi/services/workoutd.service",
                         "/etc/systemd/system/multi-user.target.wants/workoutd.service",
                         "/etc/systemd/system/timers.target.wants/workoutd-backup.timer"]
                + DeployFixture.units.map({ "/etc/systemd/system/" + $0 }) {
                #expect(!FileManager.default.fileExists(atPath: root + gone), "\(gone) is still there")
            }
            for kept in ["/var/lib/workoutd/data.mdb", "/etc/workoutd/workoutd.json"] {
                #expect(FileManager.default.fileExists(atPath: root + kept), "\(kept) was removed")
            }
            #expect(try DeployFixture.serviceUser(in: root) != nil)
            // Uninstalling twice is harmless; installing again picks the data up.
            #expect(try DeployFixture.install(["--destdir", root, "--uninstall"]).status == 0)
            let reinstalled = try DeployFixture.install(["--destdir", root, "--bin-dir", try #require(DeployFixture.binDirectory), "--no-start"])
            #expect(reinstalled.output.contains("the data in /var/lib/workoutd and the configuration were kept"), "\(reinstalled)")
            #expect(try Self.asServiceUser(root, ["members", "--config", config]).output.contains("ada@example.com"))

            let purged = try DeployFixture.install(["--destdir", root, "--uninstall", "--purge-data"])
            #expect(purged.status == 0, "\(purged)")
            #expect(!FileManager.default.fileExists(atPath: root + "/var/lib/workoutd"))
            #expect(!FileManager.default.fileExists(atPath: root + "/etc/workoutd"))
            #expect(try DeployFixture.serviceUser(in: root) == nil)
        }
    }
}
