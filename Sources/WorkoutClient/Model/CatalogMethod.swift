import WorkoutProtocol

/// One method a server implements, as `Meta.DescribeCatalog` lists it.
public struct CatalogMethod: Sendable, Hashable, Codable, Identifiable {
    /// The method number, e.g. 101; fixed forever.
    public var number: Int
    /// The catalog name `"<Service>.<Method>"`, e.g. `"Auth.Login"`.
    public var name: String
    /// Fully qualified name of the request message, e.g. `"workout.v1.LoginRequest"`.
    public var requestType: String
    /// Fully qualified name of the response message, or of each stream message for a
    /// streaming method.
    public var responseType: String
    /// Whether the method answers with a stream of messages.
    public var isServerStreaming: Bool
    /// Whether the method needs a session (answers UNAUTHENTICATED without one).
    public var needsSession: Bool
    /// Whether only admins may call it (others get PERMISSION_DENIED).
    public var isAdminOnly: Bool
    /// One-line description in English, e.g. `"Log in with email and password"`.
    public var summary: String

    /// The method number, which identifies a method.
    public var id: Int {
        number
    }

    /// Creates a catalog entry (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - number: The method number.
    ///   - name: The catalog name.
    ///   - requestType: The request message's full name.
    ///   - responseType: The response message's full name.
    ///   - isServerStreaming: Whether it streams.
    ///   - needsSession: Whether it needs a session.
    ///   - isAdminOnly: Whether it is admin-only.
    ///   - summary: One-line description.
    public init(
        number: Int, name: String, requestType: String = "", responseType: String = "",
        isServerStreaming: Bool = false, needsSession: Bool = true, isAdminOnly: Bool = false, summary: String = ""
    ) {
        self.number = number
        self.name = name
        self.requestType = requestType
        self.responseType = responseType
        self.isServerStreaming = isServerStreaming
        self.needsSession = needsSession
        self.isAdminOnly = isAdminOnly
        self.summary = summary
    }
}

// MARK: Wire

extension CatalogMethod {
    /// Creates a catalog entry from the wire (`MethodDescriptor`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_MethodDescriptor) {
        self.init(
            number: Int(wire.number), name: wire.name, requestType: wire.requestType, responseType: wire.responseType,
            isServerStreaming: wire.serverStreaming, needsSession: wire.needsSession, isAdminOnly: wire.adminOnly,
            summary: wire.summary
        )
    }
}
