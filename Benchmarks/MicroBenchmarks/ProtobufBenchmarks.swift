import Benchmark
import Foundation
import SwiftProtobuf
import WorkoutProtocol

/// Protobuf's share of a call, per message: the request bodies of the hot paths decoded, and
/// the fields a reply is encoded with. Each iteration handles 1,000 messages.
enum ProtobufBenchmarks {
    static func register() {
        let configuration = Benchmark.Configuration(scalingFactor: .kilo)

        var mealsRequest = Workout_V1_MealsOfDayRequest()
        mealsRequest.day.year = 2026
        mealsRequest.day.month = 11
        mealsRequest.day.day = 24
        let mealsRequestBytes: [UInt8] = (try? mealsRequest.serializedBytes()) ?? []

        Benchmark("protobuf: decode a MealsOfDayRequest", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Workout_V1_MealsOfDayRequest(serializedBytes: mealsRequestBytes))
            }
        }

        // The header mealsOfDayEncoded writes before the day's totals and meals.
        Benchmark("protobuf: encode a MealsOfDayResponse header (day, zone, window)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                var header = Workout_V1_MealsOfDayResponse()
                header.day = mealsRequest.day
                header.timeZone = "Europe/Stockholm"
                header.dayStartMs = 1_795_993_200_000
                header.dayEndMs = 1_796_079_600_000
                blackHole(try header.serializedBytes() as [UInt8])
            }
        }

        var weightRequest = Workout_V1_LogWeightRequest()
        weightRequest.entry.id = Data(repeating: 0x42, count: 16)
        weightRequest.entry.weightKg = 72.4
        weightRequest.entry.measuredAtMs = 1_796_000_000_000
        let weightRequestBytes: [UInt8] = (try? weightRequest.serializedBytes()) ?? []

        Benchmark("protobuf: decode a LogWeightRequest", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try Workout_V1_LogWeightRequest(serializedBytes: weightRequestBytes))
            }
        }

        var weightResponse = Workout_V1_LogWeightResponse()
        weightResponse.entry = weightRequest.entry
        weightResponse.entry.timeZone = "Europe/Stockholm"
        weightResponse.entry.createdAtMs = 1_796_000_000_100
        weightResponse.entry.revision = 4_711
        weightResponse.profileWeightUpdated = true

        Benchmark("protobuf: encode a LogWeightResponse", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try weightResponse.serializedBytes() as [UInt8])
            }
        }
    }
}
