
/// A method as data: what `Meta.DescribeCatalog` lists and the server's router looks up.
package struct MethodDescriptor: Sendable, Hashable {
    /// The number in a REQUEST frame's `code`; fixed forever.
    package let number: UInt32
    /// `Service.Method`, e.g. `Auth.Login`.
    package let name: String
    /// The request message's full protobuf name.
    package let requestType: String
    /// The response (or, when streaming, each stream message's) full protobuf name.
    package let responseType: String
    /// Whether the method answers with STREAM_MESSAGE frames and a STREAM_END.
    package let isServerStreaming: Bool
    /// Whether the connection must have a session (else UNAUTHENTICATED).
    package let needsSession: Bool
    /// Whether only admins may call it (else PERMISSION_DENIED).
    package let adminOnly: Bool
    /// Which device tokens may call it (else PERMISSION_DENIED).
    package let tokenAccess: DeviceTokenAccess
    /// One line on what it does.
    package let summary: String
    /// Its messages between protobuf and the HTTP face's forms (not part of its identity).
    package let transcoder: MessageTranscoder

    /// Whether calling it changes nothing (it only reads): the methods a `read` token may
    /// call that answer once, and the server's own description. The HTTP face also serves
    /// these at Connect's `GET` form, with an `ETag`.
    package var hasNoSideEffects: Bool {
        !isServerStreaming && (tokenAccess == .scope(.read) || tokenAccess == .anyToken)
    }

    /// The path the HTTP face serves it at (the Connect protocol's): `/workout.v1.` and the
    /// .proto service (`AuthService`), then the method, e.g. `/workout.v1.AuthService/Login`.
    package var httpPath: String {
        let parts = name.split(separator: ".", maxSplits: 1)
        return "/workout.v1.\(parts[0])Service/\(parts[1])"
    }

    /// Two descriptors are the same method when everything but the transcoder agrees.
    package static func == (lhs: MethodDescriptor, rhs: MethodDescriptor) -> Bool {
        lhs.number == rhs.number && lhs.name == rhs.name && lhs.requestType == rhs.requestType
            && lhs.responseType == rhs.responseType && lhs.isServerStreaming == rhs.isServerStreaming
            && lhs.needsSession == rhs.needsSession && lhs.adminOnly == rhs.adminOnly && lhs.tokenAccess == rhs.tokenAccess
            && lhs.summary == rhs.summary
    }

    /// Hashes what ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(name)
    }

    /// The wire form, for `Meta.DescribeCatalog`.
    package var wire: Workout_V1_MethodDescriptor {
        var descriptor = Workout_V1_MethodDescriptor()
        descriptor.number = number
        descriptor.name = name
        descriptor.requestType = requestType
        descriptor.responseType = responseType
        descriptor.serverStreaming = isServerStreaming
        descriptor.needsSession = needsSession
        descriptor.adminOnly = adminOnly
        descriptor.summary = summary
        return descriptor
    }
}

extension MethodDescriptor {
    /// The request type of an endpoint whose body is a file of its own format, taken with any
    /// `Content-Type`; it answers JSON.
    package static let anyBody = "application/octet-stream"

    /// A method the HTTP face alone serves, outside the catalog (an ingest endpoint in a format
    /// of its own): it needs a session or a token holding `import` (signed or not), and its
    /// bodies pass through as they are.
    ///
    /// - Parameters:
    ///   - number: A number no catalog method has (900 to 999, kept for these).
    ///   - name: Its name in logs and errors, e.g. `Ingest.HealthAutoExport`.
    ///   - summary: One line on what it does.
    ///   - takesAnyBody: Whether its body is a file of its own format (a workout file), taken
    ///     with any `Content-Type` (``anyBody``), instead of JSON.
    package static func httpOnly(number: UInt32, name: String, summary: String, takesAnyBody: Bool = false) -> MethodDescriptor {
        precondition((900...999).contains(number), "900 to 999 are the HTTP-only methods' numbers; the others are the catalog's")
        return MethodDescriptor(
            number: number, name: name, requestType: takesAnyBody ? anyBody : "application/json", responseType: "application/json",
            isServerStreaming: false, needsSession: true, adminOnly: false, tokenAccess: .signedPost, summary: summary,
            transcoder: .passthrough)
    }
}
