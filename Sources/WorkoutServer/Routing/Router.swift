import Foundation
import SwiftProtobuf
package import WorkoutCore
package import WorkoutProtocol

/// Maps each method of the catalog to the household operation that serves it, and checks
/// the session where the catalog says one is needed (UNAUTHENTICATED otherwise). Admin-only
/// methods are checked again by the operations themselves, inside their transactions.
package struct Router: Sendable {
    private let routes: [UInt32: (descriptor: MethodDescriptor, handler: Handler)]

    /// The routes of every catalog method, served by `household`; `stats` answers Admin.Stats
    /// and `health` Meta.Health.
    package init(
        household: HouseholdStore,
        health: @escaping @Sendable () -> Workout_V1_HealthResponse,
        stats: @escaping @Sendable () -> Workout_V1_StatsResponse
    ) {
        var table = RouteTable()
        // Meta
        table.open(MethodCatalog.health) { _, _ in health() }
        table.open(MethodCatalog.describeCatalog) { _, _ in
            var response = Workout_V1_DescribeCatalogResponse()
            response.methods = MethodCatalog.all.map(\.wire)
            response.protocolVersion = UInt32(Handshake.supportedVersions.upperBound)
            return response
        }
        // Auth
        table.authenticate(MethodCatalog.login) { context, request in
            let authenticated = try await household.login(request, source: context.source, agent: context.agent)
            return (authenticated.caller, Workout_V1_LoginResponse(granting: authenticated))
        }
        table.authenticate(MethodCatalog.register) { context, request in
            let authenticated = try await household.register(request, source: context.source, agent: context.agent)
            return (authenticated.caller, Workout_V1_RegisterResponse(granting: authenticated))
        }
        table.authenticate(MethodCatalog.resume) { _, request in
            let authenticated = try await household.resume(request)
            // A signed token speaks only in signed posts: Resume would answer its member's
            // profile and totals, which it may not read.
            if let refusal = CallAuthorization.refusal(MethodCatalog.resume.descriptor, caller: authenticated.caller) {
                throw refusal
            }
            var response = Workout_V1_ResumeResponse()
            response.session = authenticated.session
            response.profile = authenticated.profile
            response.totals = authenticated.totals
            response.revision = authenticated.revision
            return (authenticated.caller, response)
        }
        table.signOut(MethodCatalog.logout) { caller, _ in
            try await household.logout(caller)
            return Workout_V1_LogoutResponse()
        }
        table.slowWrite(MethodCatalog.changePassword) { caller, request in
            var response = Workout_V1_ChangePasswordResponse()
            response.revokedSessions = try await household.changePassword(caller, request)
            return response
        }
        table.read(MethodCatalog.listSessions) { caller, _ in
            var response = Workout_V1_ListSessionsResponse()
            response.sessions = try household.listSessions(caller)
            return response
        }
        table.write(MethodCatalog.revokeSession) { caller, request in
            try await household.revokeSession(caller, request)
            return Workout_V1_RevokeSessionResponse()
        }
        table.write(MethodCatalog.createDeviceToken) { caller, request in try await household.createDeviceToken(caller, request) }
        table.read(MethodCatalog.listDeviceTokens) { caller, request in
            var response = Workout_V1_ListDeviceTokensResponse()
            response.deviceTokens = try household.listDeviceTokens(caller, request)
            return response
        }
        table.write(MethodCatalog.revokeDeviceToken) { caller, request in
            var response = Workout_V1_RevokeDeviceTokenResponse()
            response.revoked = try await household.revokeDeviceToken(caller, request)
            return response
        }
        // Profile
        table.read(MethodCatalog.getProfile) { caller, _ in try household.getProfile(caller) }
        table.write(MethodCatalog.updateProfile) { caller, request in try await household.updateProfile(caller, request) }
        table.signOut(MethodCatalog.deleteAccount) { caller, request in
            try await household.deleteAccount(caller, request)
            return Workout_V1_DeleteAccountResponse()
        }
        // Logging
        table.write(MethodCatalog.logWorkout) { caller, request in try await household.logWorkout(caller, request) }
        table.write(MethodCatalog.updateWorkout) { caller, request in try await household.updateWorkout(caller, request) }
        table.write(MethodCatalog.deleteWorkout) { caller, request in try await household.deleteWorkout(caller, request) }
        table.write(MethodCatalog.logMeal) { caller, request in try await household.logMeal(caller, request) }
        table.write(MethodCatalog.updateMeal) { caller, request in try await household.updateMeal(caller, request) }
        table.write(MethodCatalog.deleteMeal) { caller, request in try await household.deleteMeal(caller, request) }
        table.write(MethodCatalog.logWeight) { caller, request in try await household.logWeight(caller, request) }
        table.write(MethodCatalog.deleteWeight) { caller, request in try await household.deleteWeight(caller, request) }
        table.write(MethodCatalog.reportSteps) { caller, request in try await household.reportSteps(caller, request) }
        table.write(MethodCatalog.updateWeight) { caller, request in try await household.updateWeight(caller, request) }
        table.slowWrite(MethodCatalog.importRecords) { caller, request in try await household.importRecords(caller, request) }
        // Queries
        table.readEncoded(MethodCatalog.workoutHistory) { caller, request, maxBytes in
            try household.workoutHistoryEncoded(caller, request, maxResponseBytes: maxBytes)
        }
        table.readEncoded(MethodCatalog.mealsOfDay) { caller, request, maxBytes in
            try household.mealsOfDayEncoded(caller, request, maxResponseBytes: maxBytes)
        }
        table.readEncoded(MethodCatalog.weightProgress) { caller, request, maxBytes in
            try household.weightProgressEncoded(caller, request, maxResponseBytes: maxBytes)
        }
        table.read(MethodCatalog.summaries) { caller, request in try household.summaries(caller, request) }
        table.read(MethodCatalog.achievements) { caller, _ in
            var response = Workout_V1_AchievementsResponse()
            response.achievements = try household.achievements(caller)
            return response
        }
        table.readBounded(MethodCatalog.changes) { caller, request, maxBytes in
            try household.changes(caller, request, maxResponseBytes: maxBytes)
        }
        // Goals
        table.read(MethodCatalog.getGoals) { caller, request in try household.getGoals(caller, request) }
        table.write(MethodCatalog.setGoals) { caller, request in try await household.setGoals(caller, request) }
        table.readEncoded(MethodCatalog.progress) { caller, request, _ in try household.progressEncoded(caller, request) }
        // Foods
        table.write(MethodCatalog.addFoods) { caller, request in try await household.addFoods(caller, request) }
        table.write(MethodCatalog.updateFood) { caller, request in try await household.updateFood(caller, request) }
        table.write(MethodCatalog.deleteFood) { caller, request in try await household.deleteFood(caller, request) }
        table.readEncoded(MethodCatalog.searchFoods) { caller, request, maxBytes in
            try household.searchFoodsEncoded(caller, request, maxResponseBytes: maxBytes)
        }
        table.read(MethodCatalog.myFoods) { caller, request in try household.myFoods(caller, request) }
        // Templates
        table.write(MethodCatalog.saveTemplate) { caller, request in try await household.saveTemplate(caller, request) }
        table.read(MethodCatalog.listTemplates) { caller, _ in try household.listTemplates(caller) }
        table.write(MethodCatalog.deleteTemplate) { caller, request in try await household.deleteTemplate(caller, request) }
        table.write(MethodCatalog.logTemplate) { caller, request in try await household.logTemplate(caller, request) }
        // Household
        table.read(MethodCatalog.householdView) { caller, _ in
            var response = Workout_V1_HouseholdViewResponse()
            response.members = try household.householdView(caller)
            return response
        }
        // Admin
        table.write(MethodCatalog.createInvite) { caller, request in try await household.createInvite(caller, request) }
        table.read(MethodCatalog.listInvites) { caller, request in
            var response = Workout_V1_ListInvitesResponse()
            response.invites = try household.listInvites(caller, request)
            return response
        }
        table.write(MethodCatalog.revokeInvite) { caller, request in
            var response = Workout_V1_RevokeInviteResponse()
            response.invite = try await household.revokeInvite(caller, request)
            return response
        }
        table.read(MethodCatalog.listMembers) { caller, _ in
            var response = Workout_V1_ListMembersResponse()
            response.members = try household.listMembers(caller)
            return response
        }
        table.write(MethodCatalog.removeMember) { caller, request in
            try await household.removeMember(caller, request)
            return Workout_V1_RemoveMemberResponse()
        }
        table.slowWrite(MethodCatalog.resetPassword) { caller, request in
            var response = Workout_V1_ResetPasswordResponse()
            response.revokedSessions = try await household.resetPassword(caller, request)
            return response
        }
        table.write(MethodCatalog.markChild) { caller, request in try await household.markChild(caller, request) }
        table.read(MethodCatalog.stats) { caller, _ in
            try household.requireAdmin(caller)
            return stats()
        }
        // Streams
        table.stream(MethodCatalog.watch, .watch)
        table.stream(MethodCatalog.export, .export)
        // The HTTP face's own endpoints.
        table.ingest(IngestRoutes.healthAutoExport) { caller, post in
            try await IngestRoutes.importHealthAutoExport(post, caller: caller, household: household)
        }
        table.ingest(IngestRoutes.healthConnect) { caller, post in
            try await IngestRoutes.importHealthConnect(post, caller: caller, household: household)
        }
        table.ingest(IngestRoutes.workoutFile) { caller, post in
            try await IngestRoutes.importWorkoutFile(post, caller: caller, household: household)
        }
        routes = table.routes
    }

    /// The route of method `number`, or `nil` (UNIMPLEMENTED).
    package func route(_ number: UInt32) -> (descriptor: MethodDescriptor, handler: Handler)? {
        routes[number]
    }

    /// The descriptor of every catalog method served, by number: what the connection's rules
    /// check (the HTTP face's own endpoints are not among them: the binary face has no path).
    package var descriptors: [UInt32: MethodDescriptor] {
        routes.filter { MethodCatalog.method(number: $0.key) != nil }.mapValues(\.descriptor)
    }

    /// Every method number served.
    package var methods: [UInt32] { routes.keys.sorted() }
}

/// Builds the routes, each typed by its method's request and response.
private struct RouteTable {
    var routes: [UInt32: (descriptor: MethodDescriptor, handler: Handler)] = [:]

    private mutating func add<Request, Response>(_ method: RPCMethod<Request, Response>, _ handler: Handler) {
        precondition(routes[method.number] == nil, "method \(method.number) routed twice")
        routes[method.number] = (method.descriptor, handler)
    }

    /// A method that needs no session, answered inline.
    mutating func open<Request, Response>(_ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (RequestContext, Request) throws -> Response) {
        add(method, .inline { context, bytes in .reply(try encode(body(context, decode(Request.self, bytes)))) })
    }

    /// A read of the caller's data, answered inline on the connection's queue.
    mutating func read<Request, Response>(_ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (Caller, Request) throws -> Response) {
        add(method, .inline { context, bytes in
            .reply(try encode(body(requireCaller(context), decode(Request.self, bytes))))
        })
    }

    /// A paged read whose page ends where the client's frame is full: the handler is given
    /// the largest response the client accepts. Answered inline.
    mutating func readBounded<Request, Response>(
        _ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (Caller, Request, _ maxResponseBytes: Int) throws -> Response
    ) {
        add(method, .inline { context, bytes in
            .reply(try encode(body(requireCaller(context), decode(Request.self, bytes), context.maxResponseBytes)))
        })
    }

    /// A paged read whose handler returns the response already encoded (its records spliced in
    /// from their stored bytes), given the largest response the client accepts. Answered inline.
    mutating func readEncoded<Request, Response>(
        _ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (Caller, Request, _ maxResponseBytes: Int) throws -> [UInt8]
    ) {
        add(method, .inline { context, bytes in
            .reply(try body(requireCaller(context), decode(Request.self, bytes), context.maxResponseBytes))
        })
    }

    /// A write for the caller, run in a task on the connection's queue.
    mutating func write<Request, Response>(_ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (Caller, Request) async throws -> Response) {
        add(method, .write { context, bytes in
            .reply(try encode(await body(requireCaller(context), decode(Request.self, bytes))))
        })
    }

    /// A write for the caller with slow work before it (scrypt, an import's batch), run in a
    /// task on the shared executor of slow calls.
    mutating func slowWrite<Request, Response>(_ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (Caller, Request) async throws -> Response) {
        add(method, .slow { context, bytes in
            .reply(try encode(await body(requireCaller(context), decode(Request.self, bytes))))
        })
    }

    /// A call that gives the connection a session (scrypt at login and register: a slow call).
    mutating func authenticate<Request, Response>(_ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (RequestContext, Request) async throws -> (Caller, Response)) {
        add(method, .slow { context, bytes in
            if context.caller != nil {
                throw CallFailure(.failedPrecondition, "this connection already has a session; open a new connection to switch accounts")
            }
            let (caller, response) = try await body(context, decode(Request.self, bytes))
            return .bind(caller, reply: try encode(response))
        })
    }

    /// A call that ends the connection's session (deleting an account checks the password: a
    /// slow call).
    mutating func signOut<Request, Response>(_ method: RPCMethod<Request, Response>, _ body: @escaping @Sendable (Caller, Request) async throws -> Response) {
        add(method, .slow { context, bytes in
            .unbind(reply: try encode(await body(requireCaller(context), decode(Request.self, bytes))))
        })
    }

    /// An endpoint of the HTTP face in a format of its own: its body as it came (with the
    /// request's signature), its answer as it goes (a slow call: an import's batches).
    mutating func ingest(_ descriptor: MethodDescriptor, _ body: @escaping @Sendable (Caller, IngestPost) async throws -> [UInt8]) {
        precondition(routes[descriptor.number] == nil, "method \(descriptor.number) routed twice")
        routes[descriptor.number] = (descriptor, .slow { context, bytes in
            .reply(try await body(requireCaller(context), IngestPost(body: bytes, signature: context.signature)))
        })
    }

    /// A server-streaming method.
    mutating func stream<Request, Response>(_ method: RPCMethod<Request, Response>, _ kind: StreamKind) {
        add(method, .stream(kind))
    }
}

/// The caller, or UNAUTHENTICATED.
func requireCaller(_ context: RequestContext) throws -> Caller {
    guard let caller = context.caller else {
        throw CallFailure(.unauthenticated, "this method needs a session: call Auth.Login, Auth.Register or Auth.Resume first")
    }
    return caller
}

/// Decodes a request body, or INVALID_ARGUMENT.
func decode<Message: SwiftProtobuf.Message>(_ type: Message.Type, _ bytes: [UInt8]) throws -> Message {
    do {
        return try Message(serializedBytes: bytes)
    } catch {
        throw CallFailure(.invalidArgument, "the request body does not decode as \(Message.protoMessageName)")
    }
}

/// Encodes a response body.
func encode(_ message: some SwiftProtobuf.Message) throws -> [UInt8] {
    try message.serializedBytes()
}
