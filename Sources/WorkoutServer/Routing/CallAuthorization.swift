package import WorkoutCore
package import WorkoutProtocol

/// Who may call a method, decided in one step from what the catalog declares of it (whether it
/// needs a session, whether only admins may call it, which device tokens may:
/// ``MethodDescriptor/tokenAccess``) and from the caller. Both faces and the ingest endpoints
/// pass through it before any handler runs: the face's machine for a request without a
/// session, the connection for every call with one, and `Auth.Resume` for the token it
/// resolved. The store checks an admin-only operation's caller again in its own transaction,
/// so a member removed meanwhile is refused there.
package enum CallAuthorization {
    /// How a client gets a session on the binary face, for UNAUTHENTICATED's message.
    package static let binarySignIn = "call Auth.Login, Auth.Register or Auth.Resume first"

    /// Why `caller` may not call `method`, or `nil` when it may. `caller` is `nil` for a call
    /// without a session; `signIn` says how to get one, in the face's terms.
    package static func refusal(_ method: MethodDescriptor, caller: Caller?, signIn: String = binarySignIn) -> CallFailure? {
        guard let caller else {
            return method.needsSession ? CallFailure(.unauthenticated, "\(method.name) needs a session: \(signIn)") : nil
        }
        if method.adminOnly, !caller.isAdmin {
            return CallFailure(.permissionDenied, "only an admin may call \(method.name)")
        }
        guard let scopes = caller.scopes else { return nil }
        let signed = caller.signingSecret != nil
        if method.tokenAccess.allows(scopes: scopes, signed: signed) { return nil }
        if signed {
            return CallFailure(.permissionDenied, "this device token signs its posts: it may only post to the ingest endpoints, not call \(method.name)")
        }
        let names = scopes.map(\.name).sorted().joined(separator: ", ")
        return CallFailure(.permissionDenied, "this device token (scopes: \(names)) may not call \(method.name)")
    }
}
