import Foundation

/// How a person runs `workoutd` again from where this process runs, for the hints that name a
/// next command ("create the owner with `… create-owner`").
///
/// In a checkout the executable sits in the build folder (`.build/debug/workoutd`), which is
/// not on `PATH`: `swift run workoutd` is what works there. Installed (`/usr/local/bin`, by
/// deploy/install.sh), `workoutd` is; from a folder not on `PATH`, its path is.
enum HowToRun {
    /// The command that starts this `workoutd`: `swift run workoutd`, `workoutd`, or a path.
    static var workoutd: String {
        command(executable: Bundle.main.executablePath ?? CommandLine.arguments[0],
                path: ProcessInfo.processInfo.environment["PATH"] ?? "")
    }

    /// The command for an executable at `executable`, given the search path.
    ///
    /// - Parameters:
    ///   - executable: The executable's path.
    ///   - path: `PATH`, folders separated by colons.
    /// - Returns: `swift run NAME` inside a `.build` folder, `NAME` from a folder on `PATH`,
    ///   else the path itself.
    static func command(executable: String, path: String) -> String {
        let url = URL(fileURLWithPath: executable).standardizedFileURL
        let name = url.lastPathComponent
        if url.pathComponents.contains(".build") { return "swift run \(name)" }
        let folder = url.deletingLastPathComponent().path
        let searched = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).standardizedFileURL.path }
        return searched.contains(folder) ? name : url.path
    }
}
