import Testing

/// What `workout --help` promises scripts, and shell completion.
@Suite("workout's help and completion")
struct HelpTests {
    @Test("--help documents every exit code and completion")
    func help() async throws {
        let result = try await CLIHousehold.workout(["--help"], environment: [:])
        #expect(result.status == 0)
        for code in ["  0  success", " 64  usage", " 65  invalid input", " 66  not found", " 69  the server", " 75  temporary", " 77  not signed in", "  1  anything else"] {
            #expect(result.output.contains(code), "missing \(code)")
        }
        #expect(result.output.contains("--generate-completion-script bash"))
    }

    @Test("ArgumentParser generates a bash completion script")
    func completion() async throws {
        let result = try await CLIHousehold.workout(["--generate-completion-script", "bash"], environment: [:])
        #expect(result.status == 0)
        #expect(result.output.contains("_workout"))
        #expect(result.output.contains("achievements"))
    }
}
