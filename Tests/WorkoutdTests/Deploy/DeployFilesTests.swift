import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import workoutd

/// The Avahi service file, the example configuration and the documentation agree with the code.
@Suite("deploy/: Avahi service, example configuration, documentation")
struct DeployFilesTests {
    /// Collects the text of every element of an XML document, by element name.
    final class Elements: NSObject, XMLParserDelegate {
        var texts: [String: [String]] = [:]
        private var current = ""
        private var name = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            name = elementName
            current = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            texts[elementName, default: []].append(current.trimmingCharacters(in: .whitespacesAndNewlines))
            current = ""
        }
    }

    @Test("The Avahi service file is well-formed XML advertising _workout._tcp on the default port")
    func avahi() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: DeployFixture.deployDirectory + "/avahi/workoutd.service"))
        let parser = XMLParser(data: data)
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(elements.texts["type"] == ["_workout._tcp"])
        #expect(elements.texts["port"] == ["\(ServerSettings.defaultPort)"])
        #expect(elements.texts["name"] == ["Workout on %h"])
    }

    @Test("The example configuration sets every key, each to its default, and is valid")
    func exampleConfiguration() throws {
        let path = DeployFixture.deployDirectory + "/workoutd.json"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let file = try ConfigurationFile.parse(data, path: path)
        #expect(file.host == "0.0.0.0" && file.port == ServerSettings.defaultPort && file.dataDirectory == "/var/lib/workoutd")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let limits = try #require(object["limits"] as? [String: Any])
        for key in ConfigurationKey.all {
            let value = key.name.hasPrefix("limits.") ? limits[key.leaf] : object[key.name]
            let text = try #require(value.map { "\($0)" }, "the example lacks \(key.name)")
            if !["host", "data_dir", "backup_dir"].contains(key.name) {
                #expect(text == key.defaultValue, "\(key.name): the example says \(text), the default is \(key.defaultValue)")
            }
        }
    }

    @Test("deploy/README.md documents every key with its default and bound, and the top-level README points to it")
    func documentation() throws {
        let readme = try String(contentsOfFile: DeployFixture.deployDirectory + "/README.md", encoding: .utf8)
        for key in ConfigurationKey.all {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(key.name)` |") }
            let line = try #require(row, "deploy/README.md has no table row for \(key.name)")
            #expect(line.contains(key.defaultValue) && line.contains(key.bound.description), "\(line)")
        }
        for topic in ["journalctl -u workoutd", "create-owner", "invite", "workoutd restore", "--uninstall", "--purge-data", "ufw", "nft"] {
            #expect(readme.contains(topic), "deploy/README.md does not mention \(topic)")
        }
        let top = try String(contentsOfFile: DeployFixture.packageDirectory + "/README.md", encoding: .utf8)
        #expect(top.contains("](deploy/README.md)"))
    }
}
