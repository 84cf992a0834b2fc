import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The admin subcommands, run as processes against a temporary data directory.
@Suite("workoutd's admin commands", .serialized)
struct AdminCommandTests {
    @Test("create-owner makes the owner once, with the password read from standard input; a second one is refused")
    func createOwnerOnce() async throws {
        try await withTemporaryDirectory { path in
            let data = path + "/data"
            let first = try createOwner(data)
            #expect(first.output.contains("ada@example.com"))
            #expect(first.output.contains("Europe/Berlin"))
            let idLine = try #require(first.output.split(separator: "\n").first { $0.contains("id:") })
            let id = try #require(idLine.split(separator: " ").last.map(String.init))
            #expect(UUID(uuidString: id) != nil, "\(first)")
            #expect(first.error.isEmpty)

            let second = try WorkoutdProcess.run(
                ["create-owner", "--data-dir", data, "--email", "eve@example.com", "--first-name", "Eve", "--password-stdin"],
                input: "another password\n")
            #expect(second.status == 3, "\(second)")
            #expect(second.error.contains("this household has an owner already (ada@example.com)"), "\(second)")
            #expect(second.output.isEmpty)

            try await withHousehold(data) { store in
                let members = try store.listMembersLocally()
                #expect(members.map(\.email) == ["ada@example.com"])
                #expect(members.first?.role == .owner)
                #expect(members.first.map { UUID(bytes: $0.userID).uuidString.lowercased() } == id)
                #expect(members.first?.timeZone == "Europe/Berlin")
                let session = try await login(store, email: "ada@example.com", password: "correct horse battery")
                #expect(session.profile.firstName == "Ada")
            }
        }
    }

    @Test("invite prints a code, once, that registration accepts with the role it names")
    func inviteThenRegister() async throws {
        try await withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let result = try WorkoutdProcess.run(
                ["invite", "--data-dir", data, "--role", "admin", "--expires-in", "12h", "--note", "for Bob"])
            #expect(result.status == 0, "\(result)")
            #expect(result.output.contains("(in 12h)"), "\(result)")
            #expect(result.output.contains("Role:        admin"))
            #expect(result.output.contains("Note:        for Bob"))
            let code = try #require(inviteCode(in: result.output), "\(result)")
            #expect(code.count == 19)

            try await withHousehold(data) { store in
                var request = Workout_V1_RegisterRequest()
                request.inviteCode = code
                request.password = "bobs password"
                request.deviceName = "phone"
                request.profile.email = "bob@example.com"
                request.profile.firstName = "Bob"
                request.profile.timeZone = "UTC"
                let joined = try await store.register(request, source: "test", agent: "WorkoutdTests")
                #expect(joined.profile.role == .admin)
                // Once only.
                request.profile.email = "bob2@example.com"
                await #expect(throws: DomainError.self) { _ = try await store.register(request, source: "test", agent: "WorkoutdTests") }
            }

            let members = try WorkoutdProcess.run(["members", "--data-dir", data])
            #expect(members.status == 0, "\(members)")
            let lines = members.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(members)")
            #expect(lines.first?.hasPrefix("EMAIL") == true)
            #expect(lines.first?.contains("NAME") == true && lines.first?.contains("ROLE") == true && lines.first?.contains("CREATED") == true)
            #expect(lines.dropFirst().first?.contains("ada@example.com") == true)
            #expect(lines.dropFirst().first?.contains("Ada Lovelace") == true)
            #expect(lines.dropFirst().first?.contains("owner") == true)
            #expect(lines.last?.contains("bob@example.com") == true && lines.last?.contains("admin") == true)
        }
    }

    @Test("invite without options makes a member's code for 7 days")
    func inviteDefaults() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let result = try WorkoutdProcess.run(["invite", "--data-dir", data])
            #expect(result.status == 0, "\(result)")
            #expect(result.output.contains("Role:        member"))
            #expect(result.output.contains("(in 7d)"), "\(result)")
            #expect(inviteCode(in: result.output) != nil)
        }
    }

    @Test("members lists the owner")
    func membersListsOwner() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let result = try WorkoutdProcess.run(["members", "--data-dir", data])
            #expect(result.status == 0, "\(result)")
            #expect(result.output.contains("ada@example.com"))
            #expect(result.output.contains("Ada Lovelace"))
            #expect(result.output.contains("owner"))
            #expect(result.error.isEmpty)
        }
    }

    @Test("reset-password sets the password, revokes the member's sessions and says how many")
    func resetPassword() async throws {
        try await withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            try await withHousehold(data) { store in
                _ = try await login(store, email: "ada@example.com", password: "correct horse battery")
                _ = try await login(store, email: "ada@example.com", password: "correct horse battery")
            }
            let result = try WorkoutdProcess.run(
                ["reset-password", "--data-dir", data, "--email", "ADA@example.com", "--password-stdin"],
                input: "a brand new password\n")
            #expect(result.status == 0, "\(result)")
            #expect(result.output.contains("Set a new password for ada@example.com; revoked 2 sessions."), "\(result)")
            try await withHousehold(data) { store in
                await #expect(throws: DomainError.self) {
                    _ = try await login(store, email: "ada@example.com", password: "correct horse battery")
                }
                _ = try await login(store, email: "ada@example.com", password: "a brand new password")
            }

            let unknown = try WorkoutdProcess.run(
                ["reset-password", "--data-dir", data, "--email", "nobody@example.com", "--password-stdin"], input: "whatever123\n")
            #expect(unknown.status == 1, "\(unknown)")
            #expect(unknown.error.contains("no member of the household"), "\(unknown)")
        }
    }

    @Test("The data directory also comes from WORKOUTD_DATA_DIR and from a configuration file, flags winning")
    func dataDirectorySources() throws {
        try withTemporaryDirectory { path in
            let fromEnvironment = try WorkoutdProcess.run(
                ["create-owner", "--email", "env@example.com", "--first-name", "Env", "--password-stdin"],
                input: "environment password\n", environment: ["WORKOUTD_DATA_DIR": path + "/from-env"])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
            #expect(FileManager.default.fileExists(atPath: path + "/from-env/data.mdb"))

            try Data(#"{"data_dir": "from-env"}"#.utf8).write(to: URL(fileURLWithPath: path + "/workoutd.json"))
            let fromFile = try WorkoutdProcess.run(["members", "--config", path + "/workoutd.json"], in: "/")
            #expect(fromFile.status == 0, "\(fromFile)")
            #expect(fromFile.output.contains("env@example.com"))

            let fromConfigVariable = try WorkoutdProcess.run(["members"], environment: ["WORKOUTD_CONFIG": path + "/workoutd.json"], in: "/")
            #expect(fromConfigVariable.output.contains("env@example.com"), "\(fromConfigVariable)")

            try createOwner(path + "/flag", email: "flag@example.com")
            let flagWins = try WorkoutdProcess.run(
                ["members", "--config", path + "/workoutd.json", "--data-dir", path + "/flag"],
                environment: ["WORKOUTD_DATA_DIR": path + "/from-env"])
            #expect(flagWins.output.contains("flag@example.com"), "\(flagWins)")
            #expect(!flagWins.output.contains("env@example.com"))

            let defaultDirectory = try WorkoutdProcess.run(
                ["create-owner", "--email", "cwd@example.com", "--first-name", "Cwd", "--password-stdin"],
                input: "default directory\n", in: path)
            #expect(defaultDirectory.status == 0, "\(defaultDirectory)")
            #expect(FileManager.default.fileExists(atPath: path + "/workout-data/data.mdb"))
        }
    }
}
