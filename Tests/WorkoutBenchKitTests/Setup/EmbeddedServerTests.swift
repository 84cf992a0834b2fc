import Foundation
import Testing
import WorkoutBenchKit

/// The workoutd child's configuration.
@Suite("Embedded server")
struct EmbeddedServerTests {
    @Test("The configuration file raises workoutd's connection limits to hold every connection of the run, never below its defaults")
    func limits() throws {
        for (connections, total, perAddress) in [(65, 1_024, 256), (1_065, 1_129, 1_129)] {
            let text = EmbeddedServer.configuration(connections: connections)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["limits"])
            let limits = try #require(object["limits"] as? [String: Int])
            #expect(limits == ["max_connections": total, "max_connections_per_address": perAddress])
        }
    }
}
