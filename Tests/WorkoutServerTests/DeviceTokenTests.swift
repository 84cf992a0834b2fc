import Foundation
import ServerTestSupport
import SwiftProtobuf
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// Device tokens through the real server and store: made by a signed-in member, shown once,
/// scoped on every method over both faces, listed and revoked by their member or an admin,
/// refused at once when revoked.
@Suite("Device tokens over both faces")
struct DeviceTokenTests {
    static func create(_ client: FaceClient, _ name: String, _ scopes: [Workout_V1_TokenScope]) throws -> Workout_V1_CreateDeviceTokenResponse {
        var request = Workout_V1_CreateDeviceTokenRequest()
        request.name = name
        request.scopes = scopes
        return try client.call(MethodCatalog.createDeviceToken, request)
    }

    /// Calls every unary catalog method that needs a session (but Logout, which would end the
    /// token) with an empty request; the statuses by method.
    static func sweep(_ client: FaceClient) throws -> [UInt32: StatusCode] {
        var statuses: [UInt32: StatusCode] = [:]
        func call<Request, Response>(_ method: RPCMethod<Request, Response>) throws {
            statuses[method.number] = try client.status(method, Request()).0
        }
        try call(MethodCatalog.changePassword); try call(MethodCatalog.listSessions); try call(MethodCatalog.revokeSession)
        try call(MethodCatalog.createDeviceToken); try call(MethodCatalog.listDeviceTokens); try call(MethodCatalog.revokeDeviceToken)
        try call(MethodCatalog.getProfile); try call(MethodCatalog.updateProfile); try call(MethodCatalog.deleteAccount)
        try call(MethodCatalog.logWorkout); try call(MethodCatalog.updateWorkout); try call(MethodCatalog.deleteWorkout)
        try call(MethodCatalog.logMeal); try call(MethodCatalog.updateMeal); try call(MethodCatalog.deleteMeal)
        try call(MethodCatalog.logWeight); try call(MethodCatalog.deleteWeight); try call(MethodCatalog.reportSteps)
        try call(MethodCatalog.updateWeight); try call(MethodCatalog.importRecords)
        try call(MethodCatalog.workoutHistory); try call(MethodCatalog.mealsOfDay); try call(MethodCatalog.weightProgress)
        try call(MethodCatalog.summaries); try call(MethodCatalog.achievements); try call(MethodCatalog.changes)
        try call(MethodCatalog.householdView)
        try call(MethodCatalog.createInvite); try call(MethodCatalog.listInvites); try call(MethodCatalog.revokeInvite)
        try call(MethodCatalog.listMembers); try call(MethodCatalog.removeMember); try call(MethodCatalog.resetPassword)
        try call(MethodCatalog.stats); try call(MethodCatalog.markChild)
        try call(MethodCatalog.getGoals); try call(MethodCatalog.setGoals); try call(MethodCatalog.progress)
        try call(MethodCatalog.addFoods); try call(MethodCatalog.updateFood); try call(MethodCatalog.deleteFood)
        try call(MethodCatalog.searchFoods); try call(MethodCatalog.myFoods)
        try call(MethodCatalog.saveTemplate); try call(MethodCatalog.listTemplates); try call(MethodCatalog.deleteTemplate)
        try call(MethodCatalog.logTemplate)
        statuses[MethodCatalog.watch.number] = try client.streamStatus(MethodCatalog.watch, Workout_V1_WatchRequest(), deadlineMilliseconds: 200)
        statuses[MethodCatalog.export.number] = try client.streamStatus(MethodCatalog.export, Workout_V1_ExportRequest(), deadlineMilliseconds: 5_000)
        return statuses
    }

    @Test("Each scope allows its methods and refuses every other with PERMISSION_DENIED, on both faces", arguments: Face.allCases)
    func scopesOnEveryMethod(face: Face) async throws {
        try await withServer(tls: true) { _, _, port in
            try await blocking {
                let owner = try FaceClient.owner(face, port: port)
                let reads: Set<UInt32> = [201, 401, 402, 403, 404, 405, 406, 501, 701, 702, 801, 803, 1004, 1005, 1102]
                let logs: Set<UInt32> = [301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 1104]
                let cases: [([Workout_V1_TokenScope], Set<UInt32>)] = [([.read], reads), ([.log], logs), ([.import], [311]), ([.read, .log], reads.union(logs))]
                for (index, (scopes, allowed)) in cases.enumerated() {
                    let made = try Self.create(owner, "scoped \(index)", scopes)
                    #expect(made.token.count == 32 && made.deviceToken.scopes == scopes.sorted { $0.rawValue < $1.rawValue })
                    let device = try FaceClient.resume(face, port: port, token: made.token)
                    let statuses = try Self.sweep(device)
                    #expect(statuses.count == MethodCatalog.all.filter(\.needsSession).count - 1)
                    for (method, status) in statuses.sorted(by: { $0.key < $1.key }) {
                        let name = MethodCatalog.method(number: method)!.name
                        if allowed.contains(method) {
                            #expect(status != .permissionDenied && status != .unauthenticated, "\(scopes) \(name): \(status.name)")
                        } else {
                            #expect(status == .permissionDenied, "\(scopes) \(name): \(status.name)")
                        }
                    }
                    // The token still works: nothing it was refused ended it.
                    #expect(try device.status(MethodCatalog.health, Workout_V1_HealthRequest()).0 == .ok)
                }
            }
        }
    }

    @Test("A revoked token is refused at once on a connection it already opened; an admin lists and revokes a member's", arguments: Face.allCases)
    func revocation(face: Face) async throws {
        try await withServer { _, _, port in
            try await blocking {
                let owner = try FaceClient.owner(face, port: port)
                let (member, registered) = try FaceClient.member(face, port: port, invitedBy: owner, email: "mia@example.com")
                let own = try Self.create(member, "Home Assistant", [.read])
                // "Newest first" is by the millisecond of creation: make the second token in a
                // later one (two calls can fit in one).
                let ownMade = own.deviceToken.createdAtMs
                for _ in 0..<100 where Int64(Date().timeIntervalSince1970 * 1000) <= ownMade { usleep(1_000) }
                let shortcut = try Self.create(member, "Shortcut", [.log])
                let device = try FaceClient.resume(face, port: port, token: own.token)
                #expect(try device.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .ok)

                // A device token cannot make tokens, nor list them.
                #expect(try device.status(MethodCatalog.createDeviceToken, Workout_V1_CreateDeviceTokenRequest()).0 == .permissionDenied)
                // The member sees both, newest first; ListSessions does not list them.
                let listed = try member.call(MethodCatalog.listDeviceTokens, Workout_V1_ListDeviceTokensRequest())
                #expect(listed.deviceTokens.map(\.name) == ["Shortcut", "Home Assistant"])
                #expect(try member.call(MethodCatalog.listSessions, Workout_V1_ListSessionsRequest()).sessions.count == 1)

                var revoke = Workout_V1_RevokeDeviceTokenRequest()
                revoke.tokenID = own.deviceToken.tokenID
                #expect(try member.call(MethodCatalog.revokeDeviceToken, revoke).revoked)
                #expect(try device.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)

                // The admin sees the member's remaining token and revokes it; a member cannot list the owner's.
                var othersList = Workout_V1_ListDeviceTokensRequest()
                othersList.userID = registered.profile.userID
                let seen = try owner.call(MethodCatalog.listDeviceTokens, othersList)
                #expect(seen.deviceTokens.map(\.tokenID) == [shortcut.deviceToken.tokenID])
                let ownerID = try owner.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.userID
                othersList.userID = ownerID
                #expect(try member.status(MethodCatalog.listDeviceTokens, othersList).0 == .permissionDenied)
                revoke.tokenID = shortcut.deviceToken.tokenID
                #expect(try owner.call(MethodCatalog.revokeDeviceToken, revoke).revoked)
                #expect(try member.call(MethodCatalog.listDeviceTokens, Workout_V1_ListDeviceTokensRequest()).deviceTokens.isEmpty)
                let stale = try FaceClient(face, port: port)
                var resume = Workout_V1_ResumeRequest()
                resume.sessionToken = shortcut.token
                #expect(try stale.status(MethodCatalog.resume, resume).0 == .unauthenticated)
            }
        }
    }

    @Test("Names and scopes are checked, and a member holds at most 20 tokens")
    func bounds() async throws {
        try await withServer { _, _, port in
            try await blocking {
                let owner = try FaceClient.owner(.binary, port: port)
                var request = Workout_V1_CreateDeviceTokenRequest()
                request.name = ""
                request.scopes = [.read]
                #expect(try owner.status(MethodCatalog.createDeviceToken, request).1.field == "name")
                request.name = "ok"
                request.scopes = []
                #expect(try owner.status(MethodCatalog.createDeviceToken, request).1.field == "scopes")
                request.scopes = [.read, .read]
                #expect(try owner.status(MethodCatalog.createDeviceToken, request).1.field == "scopes")
                request.scopes = [.read]
                for index in 0..<20 {
                    request.name = "token \(index)"
                    _ = try owner.call(MethodCatalog.createDeviceToken, request)
                }
                #expect(try owner.status(MethodCatalog.createDeviceToken, request).0 == .resourceExhausted)
            }
        }
    }
}
