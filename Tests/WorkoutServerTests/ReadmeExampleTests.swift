import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol

/// The Home Assistant example of README.md, read from the README itself so it cannot drift: every
/// `value_json` path its sensors read exists in the JSON a real server answers to the request the
/// example sends, with a read-scoped device token (after a workout, so no figure is 0).
@Suite("README's Home Assistant example against a real server")
struct ReadmeExampleTests {
    /// The repository's README.md (this file is `<package>/Tests/WorkoutServerTests/ReadmeExampleTests.swift`).
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md").path

    /// The example's YAML: the fenced block that holds `rest:`.
    static func example() throws -> String {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
        return try #require(blocks.first { $0.contains("rest:") }, "README.md has no Home Assistant example")
    }

    @Test("Each !secret of the example is a whole value, as Home Assistant reads one (inside quotes it is text)")
    func secretsAreWholeValues() throws {
        let lines = try Self.example().split(separator: "\n").filter { $0.contains("!secret") }
        #expect(!lines.isEmpty, "the example keeps its token out of configuration.yaml")
        for line in lines {
            let value = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let parts = value.split(separator: " ")
            #expect(parts.count == 2 && parts[0] == "!secret" && parts[1].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" },
                    "not a whole !secret value: \(line)")
        }
    }

    @Test("Every value_json path of the example's sensors is in the answer to the request it sends")
    func fieldsExist() async throws {
        let yaml = try Self.example()
        let resource = try #require(yaml.split(separator: "\n").first { $0.contains("resource:") }.map { String($0) })
        let path = try #require(resource.range(of: "/workout.v1.").map { String(resource[$0.lowerBound...]).trimmingCharacters(in: .whitespaces) })
        let templates = yaml.split(separator: "\n").filter { $0.contains("value_json.") }
        #expect(!templates.isEmpty)
        let paths = templates.compactMap { line -> [String]? in
            guard let start = line.range(of: "value_json.") else { return nil }
            let rest = line[start.upperBound...]
            return String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }).split(separator: ".").map(String.init)
        }
        try await withServer(tls: true) { _, _, port in
            try await blocking {
                let owner = try FaceClient.owner(.http, port: port)
                // A workout today, so that the streak and points are not 0 (which JSON leaves out,
                // and the example's `default(0)` covers).
                var logWorkout = Workout_V1_LogWorkoutRequest()
                logWorkout.workout = workout()
                _ = try owner.call(MethodCatalog.logWorkout, logWorkout)
                var create = Workout_V1_CreateDeviceTokenRequest()
                create.name = "Home Assistant"
                create.scopes = [.read]
                let token = try owner.call(MethodCatalog.createDeviceToken, create).token
                let client = try HTTPTestClient(port: port)
                client.token = token
                let answer = try client.request("POST", path, body: Array("{}".utf8))
                #expect(answer.status == 200, "\(answer.text)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
                for keys in paths {
                    var value: Any? = object
                    for key in keys { value = (value as? [String: Any])?[key] }
                    #expect(value != nil, "README's Home Assistant example reads value_json.\(keys.joined(separator: ".")), which \(path) does not answer: \(answer.text)")
                }
            }
        }
    }
}
