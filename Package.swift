// swift-tools-version: 6.2
import PackageDescription

/// A warning fails the build of every target of this package (sources, tests, benchmarks,
/// examples, fuzz targets), so none is left in the project's own code; dependencies are not
/// concerned (they are built with their own settings, and SwiftPM suppresses their warnings).
/// SwiftPM also drops this setting when this package is a URL dependency of an app; an app that
/// depends on a local checkout by path builds it as written, and `WORKOUT_ALLOW_WARNINGS=1` turns
/// it off there (a newer compiler's new warning then does not stop the app's build).
let warningsAsErrors: [SwiftSetting] =
    Context.environment["WORKOUT_ALLOW_WARNINGS"] == "1" ? [] : [.treatAllWarnings(as: .error)]

/// Settings every Swift target of this package shares: Swift 6 language mode is the package
/// default; these upcoming features keep imports and existentials explicit; no warnings.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
] + warningsAsErrors

let package = Package(
    name: "Workout",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "workoutd", targets: ["workoutd"]),
        .executable(name: "workout", targets: ["workout"]),
        // The client library, cut by concern: an app links only what it calls (Sources/WorkoutClient/README.md).
        .library(name: "WorkoutClient", targets: ["WorkoutClient"]),
        .library(name: "WorkoutOffline", targets: ["WorkoutOffline"]),
        .library(name: "WorkoutSession", targets: ["WorkoutSession"]),
        .library(name: "WorkoutImport", targets: ["WorkoutImport"]),
        .executable(name: "workout-bench", targets: ["workout-bench"]),
        .executable(name: "workout-import-bench", targets: ["workout-import-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.0"..<"5.0.0"),
        // Micro-benchmarks that count instructions, mallocs and retains per operation. Its malloc
        // interposer is named (not the default traits): the Swift runtime interposer it adds on
        // Linux with Swift 6.3 is a trait of its own that the local package mirror cannot resolve.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        // DER, for what the key check reads of a certificate (and the server's identity).
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
        // The HTTP face's requests, fields and statuses (types only: the parsing is the
        // connection machine's own, bounded by its limits).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // `swift package generate-documentation --target WorkoutClient` (and WorkoutOffline,
        // WorkoutSession, WorkoutImport): the client products' DocC catalogs, built without
        // warnings by scripts/check-docs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // C libraries, in quarantine.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),

        // The C allocator's one setting the server needs (see workoutd's Serve).
        .target(name: "CMemory"),

        // The one way system calls are made: EINTR retried, errno named with the call.
        .target(name: "SystemCalls", swiftSettings: strictSettings),
        // A safe, generic wrapper of liblmdb.
        .target(name: "LMDB", dependencies: ["CLMDB", "CZlib", "SystemCalls"], exclude: ["README.md"], swiftSettings: strictSettings),
        // Typed tables, ordered keys, secondary indexes, range scans, group commit, schema, backup.
        .target(name: "Storage", dependencies: ["LMDB", "SystemCalls"], exclude: ["README.md"], swiftSettings: strictSettings),

        // TLS without sockets: OpenSSL sessions over memory BIOs, which the connections drive.
        .target(name: "WorkoutTLS", dependencies: ["COpenSSL"], swiftSettings: strictSettings),

        // The wire contract: frames, handshake, status codes, method catalog, compression, messages.
        .target(
            name: "WorkoutProtocol",
            dependencies: [
                "CZlib", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Generated/PROTO_CHECKSUM", "README.md"],
            swiftSettings: strictSettings
        ),
        // The domain's pure rules (local days and zones, streaks, points and levels, achievements,
        // steps, summaries, field bounds, the domain error): Foundation only, no store, no wire.
        // The server's domain applies them in its transactions; the client applies the same
        // functions to show writes that still wait in its outbox as the server will count them.
        .target(name: "WorkoutRules", exclude: ["README.md"], swiftSettings: strictSettings),

        // Workout files (FIT, GPX, TCX, gzip-compressed or not) read into workouts with the
        // rules' bounds and ids derived from the file: for the client's import and the server's
        // upload alike, so a file brought in both ways is stored once.
        .target(
            name: "WorkoutFiles",
            dependencies: [
                "WorkoutRules", "CZlib",
                // SHA-1 for the name-based (version 5) ids derived from a file.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),

        // The domain: the household's operations on the store, applying the rules.
        .target(
            name: "WorkoutCore",
            dependencies: [
                "WorkoutRules", "LMDB", "Storage", "WorkoutProtocol", "SystemCalls", "CZlib",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Schema/store.proto", "Generated/PROTO_CHECKSUM", "README.md"],
            swiftSettings: strictSettings
        ),

        // The socket server on Dispatch: connections, router, auth gate, limits, streams.
        .target(
            name: "WorkoutServer",
            dependencies: [
                "WorkoutCore", "WorkoutProtocol", "WorkoutRules", "WorkoutFiles", "SystemCalls", "WorkoutTLS",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),

        // The client library an app links to call the server: connection, transport, trust, the
        // typed async API and the public value types. It depends on the wire contract and the
        // domain's pure rules alone, never on the store or the server, nor on its companions
        // below (scripts/check-client-cut keeps their code out of it).
        .target(
            name: "WorkoutClient",
            dependencies: [
                "WorkoutProtocol", "WorkoutRules", "SystemCalls",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                // The server key and endorsements an app's transport hands to the key check.
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // The TLS engine on Linux; another platform adds its own engine behind the same seam.
                .target(name: "WorkoutTLS", condition: .when(platforms: [.linux])),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The client's companions, each its own product, linked only by who uses it; each depends
        // on WorkoutClient, never the reverse.
        // The outbox: writes kept on the device while the server cannot be reached, and their sync
        // (an append-only log with zlib's CRC-32 per record).
        .target(
            name: "WorkoutOffline",
            dependencies: ["WorkoutClient", "SystemCalls", "CZlib"],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The @Observable session model an app's views read, with its snapshot file; it writes
        // through the outbox and shows waiting writes by the domain's pure rules.
        .target(
            name: "WorkoutSession",
            dependencies: ["WorkoutClient", "WorkoutOffline", "WorkoutRules", "SystemCalls", "CZlib"],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The file importers: Apple Health's export (XML, or its zip through zlib's raw inflate),
        // the export's JSON and CSV, the documented CSV, and the session that sends their batches.
        .target(
            name: "WorkoutImport",
            dependencies: ["WorkoutClient", "WorkoutRules", "WorkoutFiles", "CZlib"],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),

        // The family dashboard's web files (Web/: HTML, CSS, JavaScript modules), compiled in as
        // strings at build time by the EmbedDashboard plugin; workoutd serves them. No
        // dependencies: the server knows files, not this app.
        .target(
            name: "WorkoutDashboard", exclude: ["Web", "README.md"], swiftSettings: strictSettings,
            plugins: ["EmbedDashboard"]),
        .plugin(
            name: "EmbedDashboard", capability: .buildTool(), dependencies: ["workout-embed-dashboard"],
            path: "Plugins/EmbedDashboard"),
        .executableTarget(name: "workout-embed-dashboard", path: "Plugins/EmbedDashboardTool", swiftSettings: strictSettings),

        // Executables.
        .executableTarget(
            name: "workoutd",
            dependencies: [
                "LMDB", "Storage", "SystemCalls", "WorkoutProtocol", "WorkoutRules", "WorkoutCore", "WorkoutServer", "CMemory",
                "WorkoutDashboard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The command-line client: the client library with its outbox and importers, the domain's
        // pure rules (the bounds it checks an option against before sending), the system calls
        // (its credentials file's rewrite) and argument parsing, nothing of the server.
        .executableTarget(
            name: "workout",
            dependencies: [
                "WorkoutClient", "WorkoutOffline", "WorkoutImport", "WorkoutRules", "SystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),

        // Tests, one target per module.
        .target(
            name: "TestSupport",
            dependencies: [
                "WorkoutProtocol", "WorkoutRules", "WorkoutTLS", "SyntheticHealthExport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        // A real server over a real store on loopback, for the server's and the client's tests.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "TestSupport", "WorkoutServer", "WorkoutCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServerTestSupport",
            swiftSettings: strictSettings
        ),
        // A real server on loopback and clients of it, for the tests of the client and its companions.
        .target(
            name: "ClientTestSupport",
            dependencies: ["WorkoutClient", "TestSupport", "ServerTestSupport", "WorkoutServer", "WorkoutCore"],
            path: "Tests/ClientTestSupport",
            swiftSettings: strictSettings
        ),
        // Built executables run as processes: finding them, running them with a time limit, and
        // a `workoutd serve` on a free port; for the tests of `workoutd` and of `workout`.
        .target(
            name: "ProcessTestSupport",
            path: "Tests/ProcessTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorkoutTLSTests",
            dependencies: ["WorkoutTLS", "TestSupport", "WorkoutServer", "WorkoutProtocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "CLMDB", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "LMDB", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "WorkoutProtocolTests",
            dependencies: ["WorkoutProtocol", "TestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "WorkoutDashboardTests", dependencies: ["WorkoutDashboard"], swiftSettings: strictSettings),
        .testTarget(name: "WorkoutRulesTests", dependencies: ["WorkoutRules", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "WorkoutCoreTests", dependencies: ["WorkoutCore", "WorkoutRules", "WorkoutProtocol", "Storage", "LMDB", "TestSupport"], swiftSettings: strictSettings),
        // Runs the built `workoutd` as a process (depending on it makes sure it is built first),
        // and tests its settings resolution in-process through `@testable import workoutd`.
        .testTarget(
            name: "WorkoutdTests",
            dependencies: ["workoutd", "WorkoutCore", "WorkoutRules", "WorkoutProtocol", "Storage", "SystemCalls", "CMemory", "TestSupport", "ProcessTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorkoutServerTests",
            dependencies: [
                "WorkoutServer", "WorkoutCore", "WorkoutProtocol", "TestSupport", "ServerTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The client library end to end against an in-process server.
        .testTarget(
            name: "WorkoutClientTests",
            dependencies: [
                "WorkoutClient", "WorkoutProtocol", "TestSupport", "ServerTestSupport", "ClientTestSupport", "WorkoutServer",
                "WorkoutCore", "WorkoutRules", .target(name: "WorkoutTLS", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings
        ),
        // The outbox: its file, folding, and syncs against an in-process server.
        .testTarget(
            name: "WorkoutOfflineTests",
            dependencies: ["WorkoutOffline", "WorkoutClient", "TestSupport", "ServerTestSupport", "ClientTestSupport"],
            swiftSettings: strictSettings
        ),
        // The session model: its snapshot file, the pending merge, and the model against an
        // in-process server.
        .testTarget(
            name: "WorkoutSessionTests",
            dependencies: ["WorkoutSession", "WorkoutOffline", "WorkoutClient", "WorkoutRules", "TestSupport", "ServerTestSupport", "ClientTestSupport"],
            swiftSettings: strictSettings
        ),
        // The importers: Apple Health's export read and imported through an in-process server, and
        // the checks before sending.
        .testTarget(
            name: "WorkoutImportTests",
            dependencies: [
                "WorkoutImport", "WorkoutFiles", "WorkoutClient", "WorkoutRules", "TestSupport", "ServerTestSupport", "ClientTestSupport", "CZlib",
            ],
            swiftSettings: strictSettings
        ),
        // `workout`'s parsing, formatting and files in-process through `@testable import workout`,
        // and the built `workout` run as a process against a `workoutd` process (depending on both
        // executables makes sure they are built first).
        .testTarget(
            name: "WorkoutCLITests",
            dependencies: [
                "workout", "workoutd", "workout-outbox-crasher", "workout-quickstart", "WorkoutClient", "WorkoutOffline",
                "WorkoutImport", "TestSupport", "ProcessTestSupport", "WorkoutRules",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),

        // The client library's example app, as its documentation shows it: it imports WorkoutClient
        // alone, as an app outside this package does. Part of every build, so the documented way
        // keeps compiling, and run by WorkoutCLITests against a real workoutd (Examples/README.md).
        .executableTarget(
            name: "workout-quickstart",
            dependencies: ["WorkoutClient"],
            path: "Examples/QuickStart",
            swiftSettings: strictSettings
        ),

        // A process the outbox's crash test kills at random points: it queues writes offline
        // into an outbox, or syncs one through a workoutd (Tests/OutboxCrasher/README.md).
        .executableTarget(
            name: "workout-outbox-crasher",
            dependencies: ["WorkoutClient", "WorkoutOffline"],
            path: "Tests/OutboxCrasher",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),

        // The frame decoder's fuzz target (see Fuzz/README.md).
        .executableTarget(
            name: "workout-fuzz-frames",
            dependencies: ["WorkoutProtocol"],
            path: "Fuzz/FrameDecoder",
            swiftSettings: strictSettings
        ),
        // The request path's fuzz target: any body to any method through the router and a real store.
        .executableTarget(
            name: "workout-fuzz-requests",
            dependencies: ["WorkoutServer", "WorkoutCore", "WorkoutProtocol", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            path: "Fuzz/Requests",
            swiftSettings: strictSettings
        ),
        // workout-bench, the load generator (Benchmarks/README.md): its logic in a library the
        // tests reach, a thin executable, and epoll/timerfd from libc (Glibc does not export them).
        .systemLibrary(name: "CLinuxEvents", path: "Benchmarks/CLinuxEvents"),
        .target(
            name: "WorkoutBenchKit",
            dependencies: [
                "CLinuxEvents", "SystemCalls", "WorkoutRules", "WorkoutCore", "WorkoutProtocol", "WorkoutServer", "WorkoutTLS",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Benchmarks/WorkoutBenchKit",
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "workout-bench",
            dependencies: ["WorkoutBenchKit"],
            path: "Benchmarks/workout-bench",
            swiftSettings: strictSettings
        ),
        // Runs the built `workout-bench` and `workoutd` as processes (depending on them builds them first).
        .testTarget(
            name: "WorkoutBenchKitTests",
            dependencies: ["WorkoutBenchKit", "workout-bench", "workoutd", "WorkoutRules", "WorkoutCore", "WorkoutProtocol"],
            swiftSettings: strictSettings
        ),
        // Synthetic Apple Health exports, written as the Health app writes them (a gigabyte when
        // asked, streamed): the import bench's input and the import tests' fixtures. Not a test
        // target, so that the bench, a product, depends on no test support.
        .target(
            name: "SyntheticHealthExport",
            path: "Benchmarks/SyntheticHealthExport",
            swiftSettings: strictSettings
        ),
        // workout-import-bench: Apple Health exports generated on the fly (a gigabyte when asked),
        // the importer's speed and peak memory, and an import end to end through workoutd.
        .executableTarget(
            name: "workout-import-bench",
            dependencies: [
                "WorkoutBenchKit", "WorkoutClient", "WorkoutImport", "SyntheticHealthExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/ImportBench",
            swiftSettings: strictSettings
        ),
        // workout-session-bench: the session model's cold start from its snapshot and a write on
        // one device shown on another through Watch, against a workoutd child process on loopback.
        .executableTarget(
            name: "workout-session-bench",
            dependencies: [
                "WorkoutBenchKit", "WorkoutClient", "WorkoutSession",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/SessionBench",
            swiftSettings: strictSettings
        ),
        // workout-wal-bench: a store's opening after a crash left N MiB in its write-ahead log:
        // time and peak memory (Benchmarks/README.md).
        .executableTarget(
            name: "workout-wal-bench",
            dependencies: ["LMDB"],
            path: "Benchmarks/WALRecovery",
            swiftSettings: strictSettings
        ),
        // workout-microbench: instructions, mallocs and time per operation of the frame
        // codec, protobuf, a read's decode-query-encode and a write's group commit, on a real
        // store (`swift package benchmark --target workout-microbench`; Benchmarks/README.md).
        // Part of every build, so it cannot rot.
        .executableTarget(
            name: "workout-microbench",
            dependencies: [
                "WorkoutBenchKit", "WorkoutCore", "WorkoutProtocol", "WorkoutServer", "WorkoutTLS",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/MicroBenchmarks",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
