import Foundation

/// Finds the `workoutd` executable the embedded server runs: SwiftPM builds every product of a
/// configuration into one directory, so it sits next to `workout-bench`'s own executable.
package enum WorkoutdLocator {
    /// The `workoutd` beside the running executable, or `nil` when there is none.
    ///
    /// The running executable is `/proc/self/exe` on Linux (resolved), else `argv[0]`.
    package static func besideThisExecutable() -> String? {
        var executable: URL?
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executable = URL(fileURLWithPath: resolved)
        }
        #endif
        if executable == nil, let first = CommandLine.arguments.first, first.contains("/") {
            executable = URL(fileURLWithPath: first).standardizedFileURL.resolvingSymlinksInPath()
        }
        guard let executable else { return nil }
        let candidate = executable.deletingLastPathComponent().appendingPathComponent("workoutd").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
