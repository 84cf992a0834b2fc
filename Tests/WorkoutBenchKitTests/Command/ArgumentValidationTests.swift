import ArgumentParser
import Testing
import WorkoutBenchKit

/// What `workout-bench` accepts on its command line, and the clear refusals of the rest.
@Suite("Argument validation")
struct ArgumentValidationTests {
    @Test("The defaults are the yardstick's shape: 100 members × 3,650 meals, 10 a day, 64 connections × 1, meals-day")
    func defaults() throws {
        let command = try WorkoutBenchCommand.parse([])
        #expect(command.scenario == .mealsDay)
        #expect(command.users == 100 && command.preload == 3_650 && command.mealsPerDay == 10)
        #expect(command.connections == 64 && command.pipeline == 1)
        #expect(command.rate == nil && command.idleConnections == 0 && command.server == nil)
        #expect(!command.compression)
    }

    @Test("Every option parses into its field")
    func everyOption() throws {
        let command = try WorkoutBenchCommand.parse([
            "--scenario", "log-weight", "--server", "10.0.0.2:7420", "--users", "7", "--preload", "70", "--per-day", "5",
            "--connections", "3", "--pipeline", "16", "--duration", "2.5", "--warmup", "0", "--rate", "1000",
            "--idle-connections", "1000", "--json", "/tmp/x.json", "--member-email", "m{n}@x.example", "--admin-email", "a@x.example",
            "--password", "pw-12345678", "--no-server-stats", "--compression", "--quiet",
        ])
        #expect(command.scenario == .logWeight && command.server == "10.0.0.2:7420")
        #expect(command.users == 7 && command.preload == 70 && command.mealsPerDay == 5)
        #expect(command.connections == 3 && command.pipeline == 16 && command.duration == 2.5 && command.warmup == 0)
        #expect(command.rate == 1_000 && command.idleConnections == 1_000 && command.json == "/tmp/x.json")
        #expect(command.memberEmail == "m{n}@x.example" && command.adminEmail == "a@x.example" && command.password == "pw-12345678")
        #expect(command.noServerStats && command.compression && command.quiet)
    }

    @Test("Every scenario name is accepted", arguments: Scenario.allCases)
    func scenarioNames(_ scenario: Scenario) throws {
        #expect(try WorkoutBenchCommand.parse(["--scenario", scenario.rawValue]).scenario == scenario)
    }

    @Test(
        "Bad arguments are refused with a message naming the option",
        arguments: [
            (["--scenario", "nope"], "--scenario"),
            (["--connections", "0"], "--connections must be from 1"),
            (["--pipeline", "0"], "--pipeline must be from 1"),
            (["--users", "0"], "--users must be from 1"),
            (["--preload=-1"], "--preload must be from 0"),
            (["--per-day", "0"], "--per-day must be from 1"),
            (["--duration", "0"], "--duration must be above 0"),
            (["--warmup=-1"], "--warmup must be from 0"),
            (["--rate", "0"], "--rate must be above 0"),
            (["--scenario", "household", "--soak", "0"], "--soak must be from 1 to 1440"),
            (["--scenario", "household", "--soak", "1441"], "--soak must be from 1 to 1440"),
            (["--soak", "60"], "--soak runs the household mix"),
            (["--scenario", "household", "--soak", "5", "--no-server-stats"], "--soak samples the server's figures"),
            (["--idle-connections=-5"], "--idle-connections must be from 0"),
            (["--scenario", "household", "--pipeline", "4"], "--pipeline applies to the request scenarios"),
            (["--scenario", "connect", "--rate", "100"], "--rate applies to the request scenarios"),
            (["--server", "localhost"], "--server must be host:port"),
            (["--server", "127.0.0.1:0"], "--server must be host:port"),
            (["--server", "127.0.0.1:7420", "--workoutd", "/bin/true"], "--workoutd starts a server"),
            (["--server", "127.0.0.1:7420", "--data-dir", "/tmp/x"], "--data-dir and --preload-only"),
            (["--preload-only"], "--preload-only needs --data-dir"),
            (["--member-email", "same@x.example"], "--member-email must contain {n}"),
            (["--bogus"], "--bogus"),
        ] as [([String], String)])
    func refused(_ arguments: [String], _ expected: String) {
        do {
            _ = try WorkoutBenchCommand.parse(arguments)
            Issue.record("\(arguments) were accepted")
        } catch {
            let message = WorkoutBenchCommand.message(for: error)
            #expect(message.contains(expected), "\(arguments): \(message)")
            #expect(WorkoutBenchCommand.exitCode(for: error) != .success)
        }
    }

    @Test("One member needs no {n} in the email template; the scripted scenarios take pipeline 1")
    func accepted() throws {
        _ = try WorkoutBenchCommand.parse(["--users", "1", "--member-email", "solo@x.example"])
        _ = try WorkoutBenchCommand.parse(["--scenario", "household", "--pipeline", "1"])
        _ = try WorkoutBenchCommand.parse(["--scenario", "connect", "--connect-auth", "resume"])
        _ = try WorkoutBenchCommand.parse(["--scenario", "meals-day", "--rate", "2000.5", "--pipeline", "64"])
    }

    @Test("A soak is the household mix for 1 to 1440 minutes, paced by --rate")
    func soak() throws {
        let command = try WorkoutBenchCommand.parse(["--scenario", "household", "--soak", "60", "--rate", "400", "--connections", "32"])
        #expect(command.soak == 60 && command.rate == 400)
        _ = try WorkoutBenchCommand.parse(["--scenario", "household", "--soak", "1440"])
        #expect(try WorkoutBenchCommand.parse([]).soak == nil)
    }

    @Test("A soak of M minutes measures M × 60 s, logs in fully every tenth round and watches one member in eight")
    func soakSettings() {
        let plan = DataPlan(
            members: 32, recordsPerMember: 100, mealsPerDay: 10, nowMilliseconds: 1_800_000_000_000,
            memberEmailTemplate: DataPlan.defaultMemberEmailTemplate, ownerEmail: DataPlan.defaultOwnerEmail, password: DataPlan.defaultPassword)
        var settings = LoadSettings(
            scenario: .household, address: ServerAddress(host: "127.0.0.1", port: 7420), connections: 32, pipeline: 1, warmupSeconds: 10,
            durationSeconds: 10, rate: 400, idleConnections: 0, plan: plan, askServerStats: true, acceptsCompression: false,
            connectAuthentication: .login, probePreloadedDay: true, setupTimeoutSeconds: 120)
        settings.makeSoak(minutes: 60)
        #expect(settings.soakMinutes == 60 && settings.durationSeconds == 3_600)
        #expect(settings.loginEveryRounds == 10 && settings.watchStreams == 4 && settings.readsPreloadedDays)
        #expect(LoadSettings.soakWatchStreams(membersUsed: 1) == 1 && LoadSettings.soakWatchStreams(membersUsed: 9) == 2)
    }
}
