package import WorkoutCore
package import WorkoutProtocol

/// Which methods a device token may call, by its scopes (PROTOCOL.md 17, "Device tokens"):
/// the same on both faces, checked before any handler runs.
package enum DeviceTokenScopes {
    /// What every device token may call: the server's own description, and its own session
    /// (Resume binds it on the binary face; Logout revokes it).
    static let always: Set<UInt32> = [
        MethodCatalog.health.number, MethodCatalog.describeCatalog.number,
        MethodCatalog.resume.number, MethodCatalog.logout.number,
    ]

    /// The methods of each scope.
    static let methods: [Workout_V1_TokenScope: Set<UInt32>] = [
        .read: [
            MethodCatalog.getProfile.number, MethodCatalog.workoutHistory.number, MethodCatalog.mealsOfDay.number,
            MethodCatalog.weightProgress.number, MethodCatalog.summaries.number, MethodCatalog.achievements.number,
            MethodCatalog.changes.number, MethodCatalog.householdView.number, MethodCatalog.watch.number,
            MethodCatalog.export.number, MethodCatalog.getGoals.number, MethodCatalog.progress.number,
            MethodCatalog.searchFoods.number, MethodCatalog.myFoods.number, MethodCatalog.listTemplates.number,
        ],
        .log: [
            MethodCatalog.logWorkout.number, MethodCatalog.updateWorkout.number, MethodCatalog.deleteWorkout.number,
            MethodCatalog.logMeal.number, MethodCatalog.updateMeal.number, MethodCatalog.deleteMeal.number,
            MethodCatalog.logWeight.number, MethodCatalog.updateWeight.number, MethodCatalog.deleteWeight.number,
            MethodCatalog.reportSteps.number, MethodCatalog.logTemplate.number,
        ],
        .import: IngestRoutes.numbers.union([MethodCatalog.importRecords.number]),
    ]

    /// Whether a caller with `scopes` (`nil`: a session, which may call anything its member may)
    /// may call method `number`.
    package static func allows(_ scopes: Set<Workout_V1_TokenScope>?, _ number: UInt32) -> Bool {
        guard let scopes else { return true }
        return always.contains(number) || scopes.contains { methods[$0]?.contains(number) == true }
    }

    /// What a signed device token may call besides the ingest endpoints: the server's own
    /// description. Its posts are checked by their signature; a method of the catalog carries
    /// none, so the token cannot speak there.
    static let signedAlways: Set<UInt32> = [MethodCatalog.health.number, MethodCatalog.describeCatalog.number]

    /// PERMISSION_DENIED for a signed device token calling `method`, which is no ingest endpoint.
    static func signedRefusal(_ method: MethodDescriptor) -> CallFailure {
        CallFailure(.permissionDenied, "this device token signs its posts: it may only post to the ingest endpoints, not call \(method.name)")
    }

    /// PERMISSION_DENIED for a caller whose scopes do not allow `method`, or `nil`.
    package static func refusal(_ caller: Caller?, _ method: MethodDescriptor) -> CallFailure? {
        if let caller, caller.signingSecret != nil, !IngestRoutes.numbers.contains(method.number), !signedAlways.contains(method.number) {
            return signedRefusal(method)
        }
        guard let caller, !allows(caller.scopes, method.number) else { return nil }
        let names = (caller.scopes ?? []).map(\.name).sorted().joined(separator: ", ")
        return CallFailure(.permissionDenied, "this device token (scopes: \(names)) may not call \(method.name)")
    }
}

extension Workout_V1_TokenScope {
    /// The scope's name as people write it: `read`, `log`, `import`.
    package var name: String {
        switch self {
        case .read: "read"
        case .log: "log"
        case .import: "import"
        default: "unknown"
        }
    }
}
