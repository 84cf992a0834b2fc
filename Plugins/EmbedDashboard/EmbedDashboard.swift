import Foundation
import PackagePlugin

/// Compiles the dashboard's web files (`Sources/WorkoutDashboard/Web`) into the target at build
/// time, so that `workoutd` carries the app in its binary and no generated copy is committed:
/// every file becomes a raw string literal with its path and content type
/// (`workout-embed-dashboard` writes them). The build runs it again whenever a web file changes.
@main
struct EmbedDashboard: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let web = target.directoryURL.appending(path: "Web")
        let names = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { !$0.hasPrefix(".") }.sorted()
        let inputs = names.map { web.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "DashboardFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the dashboard's \(names.count) web files",
                executable: try context.tool(named: "workout-embed-dashboard").url,
                arguments: [web.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
