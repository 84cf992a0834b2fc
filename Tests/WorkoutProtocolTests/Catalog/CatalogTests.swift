import Crypto
import Foundation
import SwiftProtobuf
import Testing
import WorkoutProtocol

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("The method catalog and the generated code match the contract")
struct CatalogTests {
    /// `rpc Name(Request) returns (stream? Response)` lines of every `service XService` block.
    static func protoMethods() throws -> [String: (request: String, response: String, streaming: Bool)] {
        let directory = repositoryRoot.appendingPathComponent("Protocol/workout/v1")
        var methods: [String: (String, String, Bool)] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".proto") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            var service: String?
            for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("service ") {
                    service = String(line.dropFirst(8).prefix { $0 != " " && $0 != "{" }).replacingOccurrences(of: "Service", with: "")
                } else if line.hasPrefix("rpc "), let service {
                    let words = line.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ")
                        .split(separator: " ").map(String.init)
                    // rpc Name Request returns [stream] Response ;
                    let streaming = words.contains("stream")
                    let response = words[streaming ? 5 : 4].trimmingCharacters(in: CharacterSet(charactersIn: ";{}"))
                    methods["\(service).\(words[1])"] = ("workout.v1." + words[2], "workout.v1." + response, streaming)
                }
            }
        }
        return methods
    }

    @Test("Every method of the .proto services is in the catalog with the same messages, and nothing else is")
    func catalogMatchesProtoFiles() throws {
        let declared = try Self.protoMethods()
        #expect(declared.count == MethodCatalog.all.count)
        for method in MethodCatalog.all {
            let proto = try #require(declared[method.name], "\(method.name) is not in the .proto files")
            #expect(proto.request == method.requestType, "\(method.name)")
            #expect(proto.response == method.responseType, "\(method.name)")
            #expect(proto.streaming == method.isServerStreaming, "\(method.name)")
        }
    }

    /// MethodCatalog is the one place a method is declared; these are written from it by
    /// `scripts/generate-catalog.sh`, and must be what it writes.
    @Test("PROTOCOL.md's catalog table is the one the catalog writes")
    func specificationTableIsGenerated() throws {
        let spec = try String(contentsOf: repositoryRoot.appendingPathComponent("Protocol/PROTOCOL.md"), encoding: .utf8)
        let expected = "<!-- catalog:begin -->\n" + MethodCatalog.markdownTable() + "\n<!-- catalog:end -->"
        #expect(spec.contains(expected), "run scripts/generate-catalog.sh")
    }

    @Test("Protocol/catalog.json, which the vector generator reads, is the one the catalog writes")
    func catalogJSONIsGenerated() throws {
        let json = try String(contentsOf: repositoryRoot.appendingPathComponent("Protocol/catalog.json"), encoding: .utf8)
        #expect(json == MethodCatalog.json(), "run scripts/generate-catalog.sh")
    }

    @Test("The comment above each rpc in the .proto files is the one the catalog writes")
    func protoCommentsAreGenerated() throws {
        let directory = repositoryRoot.appendingPathComponent("Protocol/workout/v1")
        var seen: Set<UInt32> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".proto") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("// Method "), let number = UInt32(trimmed.dropFirst(10).prefix { $0.isNumber }) else { continue }
                let method = try #require(MethodCatalog.method(number: number), "\(file) names method \(number)")
                #expect(trimmed == MethodCatalog.protoComment(for: method), "run scripts/generate-catalog.sh")
                seen.insert(number)
            }
        }
        #expect(seen == Set(MethodCatalog.all.map(\.number)))
    }

    @Test("Method numbers are unique and looked up by number")
    func lookup() {
        #expect(Set(MethodCatalog.all.map(\.number)).count == MethodCatalog.all.count)
        #expect(MethodCatalog.method(number: 101)?.name == "Auth.Login")
        #expect(MethodCatalog.method(number: 9_999) == nil)
        #expect(MethodCatalog.login.number == 101)
    }

    @Test("The committed generated code was made from the committed .proto files", arguments: [
        ("Protocol", "workout/v1", "Sources/WorkoutProtocol/Generated/PROTO_CHECKSUM"),
        ("Sources/WorkoutCore/Schema", "", "Sources/WorkoutCore/Generated/PROTO_CHECKSUM"),
    ])
    func generatedCodeIsCurrent(root: String, folder: String, checksumFile: String) throws {
        let directory = repositoryRoot.appendingPathComponent(root).appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".proto") }
            .map { folder.isEmpty ? $0 : folder + "/" + $0 }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var bytes = Data()
        for file in files {
            bytes.append(try Data(contentsOf: repositoryRoot.appendingPathComponent(root).appendingPathComponent(file)))
        }
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        let recorded = try String(contentsOf: repositoryRoot.appendingPathComponent(checksumFile), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(digest == recorded, "run scripts/generate-protos.sh after changing the .proto files")
    }
}
