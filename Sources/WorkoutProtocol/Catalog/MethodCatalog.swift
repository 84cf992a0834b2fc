import SwiftProtobuf

/// Every method of protocol version 1 (PROTOCOL.md section 22), as data both the server and
/// the client use.
package enum MethodCatalog {
    /// 1 Meta.Health: Is the server up: serving flag, agent, version, time, uptime.
    package static let health = RPCMethod<Workout_V1_HealthRequest, Workout_V1_HealthResponse>(
        1, "Meta.Health", streaming: false, session: false, admin: false, token: .anyToken,
        "Is the server up: serving flag, agent, version, time, uptime.")
    /// 2 Meta.DescribeCatalog: Every method the server offers, for generic tools.
    package static let describeCatalog = RPCMethod<Workout_V1_DescribeCatalogRequest, Workout_V1_DescribeCatalogResponse>(
        2, "Meta.DescribeCatalog", streaming: false, session: false, admin: false, token: .anyToken,
        "Every method the server offers, for generic tools.")
    /// 101 Auth.Login: Log in with email and password; binds the connection to a new session.
    package static let login = RPCMethod<Workout_V1_LoginRequest, Workout_V1_LoginResponse>(
        101, "Auth.Login", streaming: false, session: false, admin: false, token: .none,
        "Log in with email and password; binds the connection to a new session.")
    /// 102 Auth.Register: Join the household with an invite code; binds the connection to a new session.
    package static let register = RPCMethod<Workout_V1_RegisterRequest, Workout_V1_RegisterResponse>(
        102, "Auth.Register", streaming: false, session: false, admin: false, token: .none,
        "Join the household with an invite code; binds the connection to a new session.")
    /// 103 Auth.Resume: Bind the connection to an existing session by its token.
    package static let resume = RPCMethod<Workout_V1_ResumeRequest, Workout_V1_ResumeResponse>(
        103, "Auth.Resume", streaming: false, session: false, admin: false, token: .ownSession,
        "Bind the connection to an existing session by its token.")
    /// 104 Auth.Logout: End the connection's session.
    package static let logout = RPCMethod<Workout_V1_LogoutRequest, Workout_V1_LogoutResponse>(
        104, "Auth.Logout", streaming: false, session: true, admin: false, token: .ownSession,
        "End the connection's session.")
    /// 105 Auth.ChangePassword: Change one's password; revokes every other session.
    package static let changePassword = RPCMethod<Workout_V1_ChangePasswordRequest, Workout_V1_ChangePasswordResponse>(
        105, "Auth.ChangePassword", streaming: false, session: true, admin: false, token: .none,
        "Change one's password; revokes every other session.")
    /// 106 Auth.ListSessions: One's sessions.
    package static let listSessions = RPCMethod<Workout_V1_ListSessionsRequest, Workout_V1_ListSessionsResponse>(
        106, "Auth.ListSessions", streaming: false, session: true, admin: false, token: .none,
        "One's sessions.")
    /// 107 Auth.RevokeSession: Revoke one of one's sessions.
    package static let revokeSession = RPCMethod<Workout_V1_RevokeSessionRequest, Workout_V1_RevokeSessionResponse>(
        107, "Auth.RevokeSession", streaming: false, session: true, admin: false, token: .none,
        "Revoke one of one's sessions.")
    /// 108 Auth.CreateDeviceToken: Make a named, scoped, long-lived device token (shown once).
    package static let createDeviceToken = RPCMethod<Workout_V1_CreateDeviceTokenRequest, Workout_V1_CreateDeviceTokenResponse>(
        108, "Auth.CreateDeviceToken", streaming: false, session: true, admin: false, token: .none,
        "Make a named, scoped, long-lived device token (shown once).")
    /// 109 Auth.ListDeviceTokens: One's device tokens (an admin: any member's).
    package static let listDeviceTokens = RPCMethod<Workout_V1_ListDeviceTokensRequest, Workout_V1_ListDeviceTokensResponse>(
        109, "Auth.ListDeviceTokens", streaming: false, session: true, admin: false, token: .none,
        "One's device tokens (an admin: any member's).")
    /// 110 Auth.RevokeDeviceToken: Revoke one of one's device tokens (an admin: any member's).
    package static let revokeDeviceToken = RPCMethod<Workout_V1_RevokeDeviceTokenRequest, Workout_V1_RevokeDeviceTokenResponse>(
        110, "Auth.RevokeDeviceToken", streaming: false, session: true, admin: false, token: .none,
        "Revoke one of one's device tokens (an admin: any member's).")
    /// 201 Profile.GetProfile: One's profile, totals and revision.
    package static let getProfile = RPCMethod<Workout_V1_GetProfileRequest, Workout_V1_GetProfileResponse>(
        201, "Profile.GetProfile", streaming: false, session: true, admin: false, token: .scope(.read),
        "One's profile, totals and revision.")
    /// 202 Profile.UpdateProfile: Change fields of one's profile.
    package static let updateProfile = RPCMethod<Workout_V1_UpdateProfileRequest, Workout_V1_UpdateProfileResponse>(
        202, "Profile.UpdateProfile", streaming: false, session: true, admin: false, token: .none,
        "Change fields of one's profile.")
    /// 203 Profile.DeleteAccount: Delete one's account and everything of it.
    package static let deleteAccount = RPCMethod<Workout_V1_DeleteAccountRequest, Workout_V1_DeleteAccountResponse>(
        203, "Profile.DeleteAccount", streaming: false, session: true, admin: false, token: .none,
        "Delete one's account and everything of it.")
    /// 301 Logging.LogWorkout: Log a workout: totals, points, streak, achievements.
    package static let logWorkout = RPCMethod<Workout_V1_LogWorkoutRequest, Workout_V1_LogWorkoutResponse>(
        301, "Logging.LogWorkout", streaming: false, session: true, admin: false, token: .scope(.log),
        "Log a workout: totals, points, streak, achievements.")
    /// 302 Logging.UpdateWorkout: Edit a workout; what depends on it is recomputed.
    package static let updateWorkout = RPCMethod<Workout_V1_UpdateWorkoutRequest, Workout_V1_UpdateWorkoutResponse>(
        302, "Logging.UpdateWorkout", streaming: false, session: true, admin: false, token: .scope(.log),
        "Edit a workout; what depends on it is recomputed.")
    /// 303 Logging.DeleteWorkout: Delete a workout; what depends on it is recomputed.
    package static let deleteWorkout = RPCMethod<Workout_V1_DeleteWorkoutRequest, Workout_V1_DeleteWorkoutResponse>(
        303, "Logging.DeleteWorkout", streaming: false, session: true, admin: false, token: .scope(.log),
        "Delete a workout; what depends on it is recomputed.")
    /// 304 Logging.LogMeal: Log a meal with its food items.
    package static let logMeal = RPCMethod<Workout_V1_LogMealRequest, Workout_V1_LogMealResponse>(
        304, "Logging.LogMeal", streaming: false, session: true, admin: false, token: .scope(.log),
        "Log a meal with its food items.")
    /// 305 Logging.UpdateMeal: Edit a meal and its items.
    package static let updateMeal = RPCMethod<Workout_V1_UpdateMealRequest, Workout_V1_UpdateMealResponse>(
        305, "Logging.UpdateMeal", streaming: false, session: true, admin: false, token: .scope(.log),
        "Edit a meal and its items.")
    /// 306 Logging.DeleteMeal: Delete a meal and its items.
    package static let deleteMeal = RPCMethod<Workout_V1_DeleteMealRequest, Workout_V1_DeleteMealResponse>(
        306, "Logging.DeleteMeal", streaming: false, session: true, admin: false, token: .scope(.log),
        "Delete a meal and its items.")
    /// 307 Logging.LogWeight: Log a weight entry.
    package static let logWeight = RPCMethod<Workout_V1_LogWeightRequest, Workout_V1_LogWeightResponse>(
        307, "Logging.LogWeight", streaming: false, session: true, admin: false, token: .scope(.log),
        "Log a weight entry.")
    /// 308 Logging.DeleteWeight: Delete a weight entry.
    package static let deleteWeight = RPCMethod<Workout_V1_DeleteWeightRequest, Workout_V1_DeleteWeightResponse>(
        308, "Logging.DeleteWeight", streaming: false, session: true, admin: false, token: .scope(.log),
        "Delete a weight entry.")
    /// 309 Logging.ReportSteps: Report a source's step count for a local day.
    package static let reportSteps = RPCMethod<Workout_V1_ReportStepsRequest, Workout_V1_ReportStepsResponse>(
        309, "Logging.ReportSteps", streaming: false, session: true, admin: false, token: .scope(.log),
        "Report a source's step count for a local day.")
    /// 310 Logging.UpdateWeight: Edit a weight entry; the profile's weight follows the newest entry.
    package static let updateWeight = RPCMethod<Workout_V1_UpdateWeightRequest, Workout_V1_UpdateWeightResponse>(
        310, "Logging.UpdateWeight", streaming: false, session: true, admin: false, token: .scope(.log),
        "Edit a weight entry; the profile's weight follows the newest entry.")
    /// 311 Logging.ImportRecords: Import a batch of one's history, as if each record had been logged.
    package static let importRecords = RPCMethod<Workout_V1_ImportRecordsRequest, Workout_V1_ImportRecordsResponse>(
        311, "Logging.ImportRecords", streaming: false, session: true, admin: false, token: .scope(.import),
        "Import a batch of one's history, as if each record had been logged.")
    /// 401 Queries.WorkoutHistory: Workouts newest first, paged; a page fits the client's frame.
    package static let workoutHistory = RPCMethod<Workout_V1_WorkoutHistoryRequest, Workout_V1_WorkoutHistoryResponse>(
        401, "Queries.WorkoutHistory", streaming: false, session: true, admin: false, token: .scope(.read),
        "Workouts newest first, paged; a page fits the client's frame.")
    /// 402 Queries.MealsOfDay: The meals of one local day with the day's totals, paged to fit the client's frame.
    package static let mealsOfDay = RPCMethod<Workout_V1_MealsOfDayRequest, Workout_V1_MealsOfDayResponse>(
        402, "Queries.MealsOfDay", streaming: false, session: true, admin: false, token: .scope(.read),
        "The meals of one local day with the day's totals, paged to fit the client's frame.")
    /// 403 Queries.WeightProgress: Weight entries oldest first over a range, paged; a page fits the client's frame.
    package static let weightProgress = RPCMethod<Workout_V1_WeightProgressRequest, Workout_V1_WeightProgressResponse>(
        403, "Queries.WeightProgress", streaming: false, session: true, admin: false, token: .scope(.read),
        "Weight entries oldest first over a range, paged; a page fits the client's frame.")
    /// 404 Queries.Summaries: Daily or weekly figures over a range of days.
    package static let summaries = RPCMethod<Workout_V1_SummariesRequest, Workout_V1_SummariesResponse>(
        404, "Queries.Summaries", streaming: false, session: true, admin: false, token: .scope(.read),
        "Daily or weekly figures over a range of days.")
    /// 405 Queries.Achievements: Every achievement, unlocked or with progress.
    package static let achievements = RPCMethod<Workout_V1_AchievementsRequest, Workout_V1_AchievementsResponse>(
        405, "Queries.Achievements", streaming: false, session: true, admin: false, token: .scope(.read),
        "Every achievement, unlocked or with progress.")
    /// 406 Queries.Changes: What changed since a revision, paged; a page fits the client's frame.
    package static let changes = RPCMethod<Workout_V1_ChangesRequest, Workout_V1_ChangesResponse>(
        406, "Queries.Changes", streaming: false, session: true, admin: false, token: .scope(.read),
        "What changed since a revision, paged; a page fits the client's frame.")
    /// 501 Household.HouseholdView: The household leaderboard of members who share.
    package static let householdView = RPCMethod<Workout_V1_HouseholdViewRequest, Workout_V1_HouseholdViewResponse>(
        501, "Household.HouseholdView", streaming: false, session: true, admin: false, token: .scope(.read),
        "The household leaderboard of members who share.")
    /// 601 Admin.CreateInvite: Make an invite code.
    package static let createInvite = RPCMethod<Workout_V1_CreateInviteRequest, Workout_V1_CreateInviteResponse>(
        601, "Admin.CreateInvite", streaming: false, session: true, admin: true, token: .none,
        "Make an invite code.")
    /// 602 Admin.ListInvites: The household's invites.
    package static let listInvites = RPCMethod<Workout_V1_ListInvitesRequest, Workout_V1_ListInvitesResponse>(
        602, "Admin.ListInvites", streaming: false, session: true, admin: true, token: .none,
        "The household's invites.")
    /// 603 Admin.RevokeInvite: Revoke an invite.
    package static let revokeInvite = RPCMethod<Workout_V1_RevokeInviteRequest, Workout_V1_RevokeInviteResponse>(
        603, "Admin.RevokeInvite", streaming: false, session: true, admin: true, token: .none,
        "Revoke an invite.")
    /// 604 Admin.ListMembers: The household's members (no logs).
    package static let listMembers = RPCMethod<Workout_V1_ListMembersRequest, Workout_V1_ListMembersResponse>(
        604, "Admin.ListMembers", streaming: false, session: true, admin: true, token: .none,
        "The household's members (no logs).")
    /// 605 Admin.RemoveMember: Remove a member and everything of theirs.
    package static let removeMember = RPCMethod<Workout_V1_RemoveMemberRequest, Workout_V1_RemoveMemberResponse>(
        605, "Admin.RemoveMember", streaming: false, session: true, admin: true, token: .none,
        "Remove a member and everything of theirs.")
    /// 606 Admin.ResetPassword: Set a member's password; revokes their sessions.
    package static let resetPassword = RPCMethod<Workout_V1_ResetPasswordRequest, Workout_V1_ResetPasswordResponse>(
        606, "Admin.ResetPassword", streaming: false, session: true, admin: true, token: .none,
        "Set a member's password; revokes their sessions.")
    /// 607 Admin.Stats: Server statistics: connections, calls, latencies, store, commits.
    package static let stats = RPCMethod<Workout_V1_StatsRequest, Workout_V1_StatsResponse>(
        607, "Admin.Stats", streaming: false, session: true, admin: true, token: .none,
        "Server statistics: connections, calls, latencies, store, commits.")
    /// 608 Admin.MarkChild: Mark a member a child (the household's rules for children), or lift it.
    package static let markChild = RPCMethod<Workout_V1_MarkChildRequest, Workout_V1_MarkChildResponse>(
        608, "Admin.MarkChild", streaming: false, session: true, admin: true, token: .none,
        "Mark a member a child (the household's rules for children), or lift it.")
    /// 701 Streams.Watch: One's changes since a revision, then live.
    package static let watch = RPCMethod<Workout_V1_WatchRequest, Workout_V1_WatchEvent>(
        701, "Streams.Watch", streaming: true, session: true, admin: false, token: .scope(.read),
        "One's changes since a revision, then live.")
    /// 702 Streams.Export: All of one's data, in chunks.
    package static let export = RPCMethod<Workout_V1_ExportRequest, Workout_V1_ExportChunk>(
        702, "Streams.Export", streaming: true, session: true, admin: false, token: .scope(.read),
        "All of one's data, in chunks.")
    /// 801 Goals.GetGoals: One's goals in effect today, with their history; an admin, a child's.
    package static let getGoals = RPCMethod<Workout_V1_GetGoalsRequest, Workout_V1_GetGoalsResponse>(
        801, "Goals.GetGoals", streaming: false, session: true, admin: false, token: .scope(.read),
        "One's goals in effect today, with their history; an admin, a child's.")
    /// 802 Goals.SetGoals: Set or clear goals from a day on; an admin, a child's.
    package static let setGoals = RPCMethod<Workout_V1_SetGoalsRequest, Workout_V1_SetGoalsResponse>(
        802, "Goals.SetGoals", streaming: false, session: true, admin: false, token: .none,
        "Set or clear goals from a day on; an admin, a child's.")
    /// 803 Goals.Progress: A day's and its week's progress towards one's goals, and the weight trend.
    package static let progress = RPCMethod<Workout_V1_ProgressRequest, Workout_V1_ProgressResponse>(
        803, "Goals.Progress", streaming: false, session: true, admin: false, token: .scope(.read),
        "A day's and its week's progress towards one's goals, and the weight trend.")
    /// 1001 Foods.AddFoods: Add foods to the household's library (one, or a list).
    package static let addFoods = RPCMethod<Workout_V1_AddFoodsRequest, Workout_V1_AddFoodsResponse>(
        1001, "Foods.AddFoods", streaming: false, session: true, admin: false, token: .none,
        "Add foods to the household's library (one, or a list).")
    /// 1002 Foods.UpdateFood: Edit a food of the library; logged meals keep their copies.
    package static let updateFood = RPCMethod<Workout_V1_UpdateFoodRequest, Workout_V1_UpdateFoodResponse>(
        1002, "Foods.UpdateFood", streaming: false, session: true, admin: false, token: .none,
        "Edit a food of the library; logged meals keep their copies.")
    /// 1003 Foods.DeleteFood: Delete a food of the library; logged meals keep their copies.
    package static let deleteFood = RPCMethod<Workout_V1_DeleteFoodRequest, Workout_V1_DeleteFoodResponse>(
        1003, "Foods.DeleteFood", streaming: false, session: true, admin: false, token: .none,
        "Delete a food of the library; logged meals keep their copies.")
    /// 1004 Foods.SearchFoods: Foods by the start of any word of their name or brand, or by barcode.
    package static let searchFoods = RPCMethod<Workout_V1_SearchFoodsRequest, Workout_V1_SearchFoodsResponse>(
        1004, "Foods.SearchFoods", streaming: false, session: true, admin: false, token: .scope(.read),
        "Foods by the start of any word of their name or brand, or by barcode.")
    /// 1005 Foods.MyFoods: One's recent and frequent foods.
    package static let myFoods = RPCMethod<Workout_V1_MyFoodsRequest, Workout_V1_MyFoodsResponse>(
        1005, "Foods.MyFoods", streaming: false, session: true, admin: false, token: .scope(.read),
        "One's recent and frequent foods.")
    /// 1101 Templates.SaveTemplate: Save a meal or workout to log again (create or replace).
    package static let saveTemplate = RPCMethod<Workout_V1_SaveTemplateRequest, Workout_V1_SaveTemplateResponse>(
        1101, "Templates.SaveTemplate", streaming: false, session: true, admin: false, token: .none,
        "Save a meal or workout to log again (create or replace).")
    /// 1102 Templates.ListTemplates: One's templates, by name.
    package static let listTemplates = RPCMethod<Workout_V1_ListTemplatesRequest, Workout_V1_ListTemplatesResponse>(
        1102, "Templates.ListTemplates", streaming: false, session: true, admin: false, token: .scope(.read),
        "One's templates, by name.")
    /// 1103 Templates.DeleteTemplate: Delete one of one's templates.
    package static let deleteTemplate = RPCMethod<Workout_V1_DeleteTemplateRequest, Workout_V1_DeleteTemplateResponse>(
        1103, "Templates.DeleteTemplate", streaming: false, session: true, admin: false, token: .none,
        "Delete one of one's templates.")
    /// 1104 Templates.LogTemplate: Log a template, or a copy of one's meal or workout, in one call.
    package static let logTemplate = RPCMethod<Workout_V1_LogTemplateRequest, Workout_V1_LogTemplateResponse>(
        1104, "Templates.LogTemplate", streaming: false, session: true, admin: false, token: .scope(.log),
        "Log a template, or a copy of one's meal or workout, in one call.")

    /// Every method, in number order.
    package static let all: [MethodDescriptor] = [
        health.descriptor,
        describeCatalog.descriptor,
        login.descriptor,
        register.descriptor,
        resume.descriptor,
        logout.descriptor,
        changePassword.descriptor,
        listSessions.descriptor,
        revokeSession.descriptor,
        createDeviceToken.descriptor,
        listDeviceTokens.descriptor,
        revokeDeviceToken.descriptor,
        getProfile.descriptor,
        updateProfile.descriptor,
        deleteAccount.descriptor,
        logWorkout.descriptor,
        updateWorkout.descriptor,
        deleteWorkout.descriptor,
        logMeal.descriptor,
        updateMeal.descriptor,
        deleteMeal.descriptor,
        logWeight.descriptor,
        deleteWeight.descriptor,
        reportSteps.descriptor,
        updateWeight.descriptor,
        importRecords.descriptor,
        workoutHistory.descriptor,
        mealsOfDay.descriptor,
        weightProgress.descriptor,
        summaries.descriptor,
        achievements.descriptor,
        changes.descriptor,
        householdView.descriptor,
        createInvite.descriptor,
        listInvites.descriptor,
        revokeInvite.descriptor,
        listMembers.descriptor,
        removeMember.descriptor,
        resetPassword.descriptor,
        stats.descriptor,
        markChild.descriptor,
        watch.descriptor,
        export.descriptor,
        getGoals.descriptor,
        setGoals.descriptor,
        progress.descriptor,
        addFoods.descriptor,
        updateFood.descriptor,
        deleteFood.descriptor,
        searchFoods.descriptor,
        myFoods.descriptor,
        saveTemplate.descriptor,
        listTemplates.descriptor,
        deleteTemplate.descriptor,
        logTemplate.descriptor,
    ]

    private static let byNumber: [UInt32: MethodDescriptor] = Dictionary(uniqueKeysWithValues: all.map { ($0.number, $0) })

    /// The method with `number`, or `nil` (the server answers UNIMPLEMENTED).
    package static func method(number: UInt32) -> MethodDescriptor? { byNumber[number] }
}
