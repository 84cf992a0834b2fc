// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The repository this example sits in, two directories up, named as SwiftPM names a path
// dependency: by the last component of its directory. An app names the package by its own
// checkout's directory, written out (`package: "workout"` for a clone in `workout/`); this one
// computes it only because it lives inside the repository, whose clone may be in a directory of
// any name (CI's, a worktree's).
let repository = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "HouseholdApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "../..")],
    targets: [
        // Links WorkoutClient alone: the client product builds and links without its companions.
        .executableTarget(
            name: "ClientOnly",
            dependencies: [.product(name: "WorkoutClient", package: repository)]
        ),
        .testTarget(
            name: "HouseholdAppTests",
            dependencies: [
                .product(name: "WorkoutClient", package: repository),
                .product(name: "WorkoutOffline", package: repository),
                .product(name: "WorkoutSession", package: repository),
                .product(name: "WorkoutImport", package: repository),
            ]
        ),
    ]
)
