import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// PROTOCOL.md 17, "Logout after revocation": on a connection whose session was revoked while
/// it stayed open, every session method answers UNAUTHENTICATED except Auth.Logout, which is
/// idempotent and answers OK, leaving the connection without a session.
@Suite("Logout after the session was revoked")
struct LogoutAfterRevocationTests {
    /// How the session of the first connection is revoked from elsewhere.
    enum Revocation: String, CaseIterable, Sendable {
        case revokeSession, changePassword, resetPassword, removeMember
    }

    @Test("Logout answers OK after any revocation; other methods UNAUTHENTICATED; then no session", arguments: Revocation.allCases)
    func logoutAfterRevocation(_ revocation: Revocation) async throws {
        try await withServer { _, _, port in
            let owner = try TestConnection.owner(port: port)
            let email = "mia-\(revocation.rawValue)@example.com"
            let (phone, registered) = try TestConnection.member(port: port, invitedBy: owner, email: email)
            let laptop = try TestConnection.login(port: port, email: email, password: "member password 1")
            switch revocation {
            case .revokeSession:
                var request = Workout_V1_RevokeSessionRequest()
                request.sessionID = registered.session.sessionID
                _ = try laptop.call(MethodCatalog.revokeSession, request)
            case .changePassword:
                var request = Workout_V1_ChangePasswordRequest()
                request.currentPassword = "member password 1"
                request.newPassword = "member password 2"
                #expect(try laptop.call(MethodCatalog.changePassword, request).revokedSessions == 1)
            case .resetPassword:
                var request = Workout_V1_ResetPasswordRequest()
                request.userID = registered.profile.userID
                request.newPassword = "member password 2"
                _ = try owner.call(MethodCatalog.resetPassword, request)
            case .removeMember:
                var request = Workout_V1_RemoveMemberRequest()
                request.userID = registered.profile.userID
                _ = try owner.call(MethodCatalog.removeMember, request)
            }
            #expect(try phone.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)
            #expect(try phone.status(MethodCatalog.logout, Workout_V1_LogoutRequest()).0 == .ok)
            // The connection has no session now: Logout again is UNAUTHENTICATED, Login works.
            #expect(try phone.status(MethodCatalog.logout, Workout_V1_LogoutRequest()).0 == .unauthenticated)
            var login = Workout_V1_LoginRequest()
            login.email = ownerEmail
            login.password = ownerPassword
            #expect(try phone.status(MethodCatalog.login, login).0 == .ok)
        }
    }
}
