import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// queries.proto: "A token is valid only with the same query parameters it was issued for;
/// anything else is INVALID_ARGUMENT (field "page_token")" — tokens are tamper-evident and
/// bound to their member, method and parameters; the page size may change between pages.
@Suite("Page tokens are tamper-evident and bound to their query")
struct PageTokenTests {
    /// A member with five workouts and five weight entries, an hour apart.
    private func withRecords(_ body: (Household, Member) async throws -> Void) async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Nina")
            for hour in 1...5 {
                let time = householdStart - Int64(hour) * 3_600_000
                try await household.store.log(member, workout(at: time))
                try await household.store.log(member, weightEntry(kg: 70 + Double(hour), at: time))
            }
            try await body(household, member)
        }
    }

    @Test("A token issued for a page opens the next page, also with another page size")
    func genuine() async throws {
        try await withRecords { household, member in
            let first = try household.store.workoutHistory(member.caller, .with { $0.pageSize = 2 })
            let second = try household.store.workoutHistory(member.caller, .with {
                $0.pageSize = 3
                $0.pageToken = first.nextPageToken
            })
            #expect(first.workouts.count == 2 && second.workouts.count == 3)
            #expect(Set(first.workouts.map(\.id)).isDisjoint(with: second.workouts.map(\.id)))
            #expect(second.nextPageToken.isEmpty)
            #expect(first.nextPageToken.count <= 256)
        }
    }

    @Test(
        "A forged, altered or truncated token is refused with INVALID_ARGUMENT page_token",
        arguments: ["forged", "flipped", "truncated", "raw resume key"])
    func tampered(_ kind: String) async throws {
        try await withRecords { household, member in
            let first = try household.store.workoutHistory(member.caller, .with { $0.pageSize = 2 })
            let weights = try household.store.weightProgress(member.caller, .with { $0.pageSize = 2 })
            func tamper(_ token: Data) -> Data {
                var bytes = Array(token)
                switch kind {
                case "forged": return Data(repeating: 0x42, count: 73)
                case "flipped": bytes[bytes.count / 2] ^= 0x01
                case "truncated": bytes.removeLast()
                default: return Data(bytes.dropFirst().dropLast(32))  // what tokens used to be
                }
                return Data(bytes)
            }
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.workoutHistory(member.caller, .with { $0.pageToken = tamper(first.nextPageToken) })
            }
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.weightProgress(member.caller, .with { $0.pageToken = tamper(weights.nextPageToken) })
            }
        }
    }

    @Test("A token reused with other from_ms or to_ms, or by the other query, is refused")
    func otherParameters() async throws {
        try await withRecords { household, member in
            let from = householdStart - 10 * 3_600_000
            let first = try household.store.workoutHistory(member.caller, .with {
                $0.pageSize = 2
                $0.fromMs = from
            })
            #expect(!first.nextPageToken.isEmpty)
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.workoutHistory(member.caller, .with { $0.pageToken = first.nextPageToken })
            }
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.workoutHistory(member.caller, .with {
                    $0.pageToken = first.nextPageToken
                    $0.fromMs = from
                    $0.toMs = householdStart
                })
            }
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.weightProgress(member.caller, .with {
                    $0.pageToken = first.nextPageToken
                    $0.fromMs = from
                })
            }
            let same = try household.store.workoutHistory(member.caller, .with {
                $0.pageToken = first.nextPageToken
                $0.fromMs = from
            })
            #expect(same.workouts.count == 3)
        }
    }

    @Test("Tokens stay valid after the store is closed and opened again")
    func survivesReopen() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = HouseholdStore.Configuration()
            configuration.passwordParameters = .fastForTests
            configuration.environment.flags = [.noSync]
            let clock = ManualClock(householdStart)
            var store = try HouseholdStore(directory: directory, configuration: configuration, clock: clock)
            _ = try store.createOwner(email: "owner@example.com", password: testPassword, firstName: "Olga", timeZone: "UTC")
            var login = Workout_V1_LoginRequest()
            login.email = "owner@example.com"
            login.password = testPassword
            let owner = try await store.login(login, source: "127.0.0.1", agent: "tests").caller
            for hour in 1...3 {
                var request = Workout_V1_LogWorkoutRequest()
                request.workout = workout(at: householdStart - Int64(hour) * 3_600_000)
                _ = try await store.logWorkout(owner, request)
            }
            let first = try store.workoutHistory(owner, .with { $0.pageSize = 1 })
            store.close()
            store = try HouseholdStore(directory: directory, configuration: configuration, clock: clock)
            defer { store.close() }
            let second = try store.workoutHistory(owner, .with {
                $0.pageSize = 1
                $0.pageToken = first.nextPageToken
            })
            #expect(second.workouts.count == 1 && second.workouts[0].id != first.workouts[0].id)
        }
    }
}
