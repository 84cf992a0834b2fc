import Foundation
import SwiftProtobuf
import WorkoutCore
import WorkoutProtocol

/// The answers that open a session (Login, Register): the same fields, filled the same way.
protocol SessionGrantingResponse: SwiftProtobuf.Message {
    var sessionToken: Data { get set }
    var session: Workout_V1_SessionInfo { get set }
    var profile: Workout_V1_Profile { get set }
    var totals: Workout_V1_Totals { get set }
    var revision: UInt64 { get set }
}

extension Workout_V1_LoginResponse: SessionGrantingResponse {}
extension Workout_V1_RegisterResponse: SessionGrantingResponse {}

extension SessionGrantingResponse {
    /// The answer for a session just opened: its token (shown once), the session, profile,
    /// totals and revision.
    init(granting authenticated: HouseholdStore.Authenticated) {
        self.init()
        sessionToken = Data(authenticated.token ?? [])
        session = authenticated.session
        profile = authenticated.profile
        totals = authenticated.totals
        revision = authenticated.revision
    }
}
