import Testing
@testable import WorkoutClient
import WorkoutProtocol

@Suite("Wire enums")
struct EnumWireTests {
    @Test("Every role converts both ways; unspecified and unknown numbers become member")
    func roles() {
        for role in Role.allCases {
            #expect(Role(wire: role.wire) == role)
        }
        #expect(Role.owner.wire == .owner && Role.admin.wire == .admin && Role.member.wire == .member)
        #expect(Role(wire: .unspecified) == .member)
        #expect(Role(wire: .UNRECOGNIZED(7)) == .member)
        #expect(Role.admin.isAdmin && Role.owner.isAdmin && !Role.member.isAdmin)
    }

    @Test("Every goal converts both ways; unspecified and unknown numbers are not stated")
    func goals() {
        let pairs: [(FitnessGoal, Workout_V1_FitnessGoal)] = [
            (.loseWeight, .loseWeight), (.maintainWeight, .maintainWeight), (.gainMuscle, .gainMuscle),
            (.improveEndurance, .improveEndurance), (.generalFitness, .generalFitness),
        ]
        #expect(pairs.count == FitnessGoal.allCases.count)
        for (goal, wire) in pairs {
            #expect(goal.wire == wire)
            #expect(FitnessGoal(wire: wire) == goal)
        }
        #expect(FitnessGoal(wire: .unspecified) == nil)
        #expect(FitnessGoal(wire: .UNRECOGNIZED(6)) == nil)
        #expect(Optional<FitnessGoal>.none.wire == .unspecified)
    }

    @Test("Every meal type converts both ways; unspecified and unknown numbers become other")
    func mealTypes() {
        let pairs: [(MealType, Workout_V1_MealType)] = [
            (.breakfast, .breakfast), (.lunch, .lunch), (.dinner, .dinner), (.snack, .snack), (.other, .other),
        ]
        #expect(pairs.count == MealType.allCases.count)
        for (type, wire) in pairs {
            #expect(type.wire == wire)
            #expect(MealType(wire: wire) == type)
        }
        #expect(MealType(wire: .unspecified) == .other)
        #expect(MealType(wire: .UNRECOGNIZED(6)) == .other)
    }

    @Test("Every invite state converts from the wire; unspecified and unknown numbers become expired")
    func inviteStates() {
        let pairs: [(InviteState, Workout_V1_InviteState)] = [
            (.active, .active), (.used, .used), (.revoked, .revoked), (.expired, .expired),
        ]
        #expect(pairs.count == InviteState.allCases.count)
        for (state, wire) in pairs {
            #expect(InviteState(wire: wire) == state)
        }
        #expect(InviteState(wire: .unspecified) == .expired)
        #expect(InviteState(wire: .UNRECOGNIZED(5)) == .expired)
    }

    @Test("Every record kind converts from the wire; unspecified and unknown numbers are nil")
    func recordKinds() {
        let pairs: [(RecordKind, Workout_V1_RecordKind)] = [(.workout, .workout), (.meal, .meal), (.weightEntry, .weightEntry)]
        #expect(pairs.count == RecordKind.allCases.count)
        for (kind, wire) in pairs {
            #expect(RecordKind(wire: wire) == kind)
        }
        #expect(RecordKind(wire: .unspecified) == nil)
        #expect(RecordKind(wire: .UNRECOGNIZED(4)) == nil)
    }

    @Test("Both granularities convert both ways; unspecified and unknown numbers mean days")
    func granularities() {
        #expect(Granularity.day.wire == .day && Granularity.week.wire == .week)
        #expect(Granularity(wire: .day) == .day && Granularity(wire: .week) == .week)
        #expect(Granularity(wire: .unspecified) == .day)
        #expect(Granularity(wire: .UNRECOGNIZED(3)) == .day)
    }

    @Test("Unknown numbers in records take the documented fallbacks")
    func fallbacksInRecords() {
        var profile = Fixtures.profileWire
        profile.role = .UNRECOGNIZED(9)
        profile.fitnessGoal = .UNRECOGNIZED(9)
        #expect(Profile(wire: profile).role == .member)
        #expect(Profile(wire: profile).fitnessGoal == nil)

        var meal = Fixtures.mealWire
        meal.mealType = .UNRECOGNIZED(9)
        #expect(Meal(wire: meal).mealType == .other)
    }
}
