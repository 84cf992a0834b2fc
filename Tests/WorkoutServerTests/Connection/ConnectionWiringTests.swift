import Foundation
import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// The connection files split into "the rules" and "the wiring": every limit and timeout is
/// decided in a machine, so the drivers never name one, never read a clock except to tell the
/// machine the time, and never set a timer of their own. This reads the drivers' source: it
/// fails when a rule creeps into the wiring.
@Suite struct ConnectionWiringTests {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let serverDrivers = [
        "Sources/WorkoutServer/Connection/Connection.swift",
        "Sources/WorkoutServer/Connection/CallWork.swift",
        "Sources/WorkoutServer/Streams/Connection+Streams.swift",
        "Sources/WorkoutServer/Streams/ExportProducer.swift",
    ]
    static let clientDrivers = [
        "Sources/WorkoutClient/Connection/ClientConnection.swift",
        "Sources/WorkoutClient/Connection/PendingCall.swift",
    ]

    /// The server machine's limits, by their property names (the server's identity is not a rule).
    static var serverRuleNames: [String] {
        Mirror(reflecting: ServerConnectionMachine.Limits()).children.compactMap(\.label)
            .filter { $0 != "agent" && $0 != "serverVersion" }
            + ["callIDs", "Keepalive", "maxConnectionsPerSource"]
    }

    /// What the client machine decides with; `connectTimeout` also bounds `connect(2)`, which
    /// happens before any protocol and is the socket's, so the driver may pass it there.
    static let clientRuleNames = [
        "maxCallsInFlight", "pingInterval", "pingIntervalMs", "handshakeTimeout", "callIDs", "Keepalive",
        "inFlight", "waiting", "maxFrameSize", "lastCallID",
    ]

    static func source(_ path: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        // Comments may explain the rules; only code counts.
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    static func mentions(_ name: String, in code: String) -> Bool {
        code.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
    }

    @Test(arguments: serverDrivers)
    func theServerDriverNamesNoLimitAndKeepsNoTimeOfItsOwn(path: String) throws {
        let code = try Self.source(path)
        for name in Self.serverRuleNames {
            #expect(!Self.mentions(name, in: code), "\(path) names \(name): that is a rule, and rules live in ServerConnectionMachine")
        }
        for forbidden in ["asyncAfter", "makeTimerSource(", "uptimeNanoseconds -", "Date()", "ContinuousClock.now"] where forbidden != "makeTimerSource(" || path != Self.serverDrivers[0] {
            #expect(!code.contains(forbidden), "\(path) uses \(forbidden)")
        }
    }

    @Test(arguments: clientDrivers)
    func theClientDriverNamesNoLimitAndKeepsNoTimeOfItsOwn(path: String) throws {
        let code = try Self.source(path)
        for name in Self.clientRuleNames {
            #expect(!Self.mentions(name, in: code), "\(path) names \(name): that is a rule, and rules live in ClientConnectionMachine")
        }
        for forbidden in ["asyncAfter", "DispatchWorkItem", "Date()"] {
            #expect(!code.contains(forbidden), "\(path) uses \(forbidden)")
        }
    }

    @Test func theMachinesTakeTheirTimeOnlyFromTheirEvents() throws {
        for path in ["Sources/WorkoutServer/Connection/ServerConnectionMachine.swift",
                     "Sources/WorkoutClient/Connection/ClientConnectionMachine.swift"] {
            let code = try Self.source(path)
            for forbidden in ["import Dispatch", "import Foundation", "DispatchTime", "ContinuousClock", "Date(", "clock_gettime"] {
                #expect(!code.contains(forbidden), "\(path) uses \(forbidden)")
            }
        }
    }

    @Test func theMachinesLimitsComeFromTheServersConfiguration() {
        var configuration = ServerConfiguration()
        configuration.maxCallsInFlight = 3
        configuration.idleTimeout = .seconds(7)
        configuration.slowReaderTimeout = .seconds(2)
        let limits = ServerConnectionMachine.Limits(configuration)
        #expect(limits.maxCallsInFlight == 3)
        #expect(limits.idleTimeout == .seconds(7))
        #expect(limits.slowReaderTimeout == .seconds(2))
    }
}
