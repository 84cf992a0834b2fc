import ClientTestSupport
import Foundation
import ServerTestSupport
import Testing
import WorkoutClient

/// `createDeviceToken(name:scopes:)`, `deviceTokens(of:)` and `revokeDeviceToken(_:)` through
/// the real client, server and store, and a client that signs in with the token made.
@Suite("Device tokens through the client library")
struct DeviceTokenClientTests {
    @Test("a token made is listed, signs a client in until it is revoked, and revoking it again answers false")
    func lifecycle() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            let ownerID = try await owner.login(email: ownerEmail, password: ownerPassword).profile.id
            #expect(await failure { _ = try await owner.createDeviceToken(name: "nothing", scopes: []) }?.code == .invalidArgument)

            let created = try await owner.createDeviceToken(name: "Home Assistant", scopes: [.log, .read])
            #expect(created.deviceToken.name == "Home Assistant")
            #expect(Set(created.deviceToken.scopes) == [.read, .log])
            #expect(created.deviceToken.memberID == ownerID)
            #expect(created.deviceToken.lastUsedAt == nil)
            #expect(!String(describing: created).contains(created.token.base64), "the secret stays out of descriptions")
            #expect(try await owner.deviceTokens() == [created.deviceToken])

            let device = live.client(device: "home assistant", token: created.token)
            #expect(try await device.profile().profile.email == ownerEmail)
            #expect(await failure { _ = try await device.createDeviceToken(name: "more", scopes: [.read]) }?.code == .permissionDenied)
            #expect(try await owner.deviceTokens().first?.lastUsedAt != nil)

            #expect(try await owner.revokeDeviceToken(created.deviceToken.id))
            #expect(await failure { _ = try await device.profile() }?.code == .unauthenticated)
            #expect(try await owner.revokeDeviceToken(created.deviceToken.id) == false)
            #expect(try await owner.deviceTokens().isEmpty)
            device.close()
            owner.close()
        }
    }

    @Test("an admin lists and revokes a member's tokens; a member neither lists nor revokes the admin's")
    func adminAndMember() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            let ownerID = try await owner.login(email: ownerEmail, password: ownerPassword).profile.id
            let ownerToken = try await owner.createDeviceToken(name: "Shortcut", scopes: [.log]).deviceToken
            let invite = try await owner.createInvite(role: .member, expiresIn: .seconds(3_600))
            let member = live.client(device: "mia phone")
            let memberID = try await member.register(
                inviteCode: invite.code, member: NewMember(email: "mia@example.com", firstName: "Mia", timeZone: "Europe/Berlin"),
                password: "member password 1"
            ).profile.id
            let memberToken = try await member.createDeviceToken(name: "Health Auto Export", scopes: [.import]).deviceToken

            #expect(await failure { _ = try await member.deviceTokens(of: ownerID) }?.code == .permissionDenied)
            #expect(try await member.revokeDeviceToken(ownerToken.id) == false)
            #expect(try await owner.deviceTokens() == [ownerToken])
            #expect(try await member.deviceTokens(of: memberID) == [memberToken], "naming oneself is allowed")

            #expect(try await owner.deviceTokens(of: memberID) == [memberToken])
            #expect(try await owner.revokeDeviceToken(memberToken.id))
            #expect(try await member.deviceTokens().isEmpty)
            member.close()
            owner.close()
        }
    }
}
