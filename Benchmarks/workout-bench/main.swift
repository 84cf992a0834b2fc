import WorkoutBenchKit

// workout-bench: the load generator. Everything is in WorkoutBenchKit (Benchmarks/README.md).
WorkoutBenchCommand.main()
