import Foundation

/// Finding an executable product of this package (`workoutd`, `workout`) that the build put
/// beside the tests.
package enum BuiltProduct {
    /// The path of the executable product `name`, or `nil` when it cannot be found.
    ///
    /// Looked for, in order: the path in the environment variable `override` (if given and
    /// executable); next to the test bundle (SwiftPM puts every product of a configuration in
    /// one directory: walk up a few levels from `CommandLine.arguments[0]`, the main bundle
    /// and the `.xctest` bundles, which on macOS sit inside `X.xctest/Contents/MacOS`); in the
    /// package's `.build/<configuration>` and `.build/<triple>/<configuration>` directories,
    /// found from this file's path.
    ///
    /// - Parameters:
    ///   - name: The product's name.
    ///   - override: An environment variable that may name the binary, e.g. `WORKOUTD_BINARY`.
    /// - Returns: The binary's path.
    package static func path(named name: String, override: String? = nil) -> String? {
        let files = FileManager.default
        if let override, let explicit = ProcessInfo.processInfo.environment[override], files.isExecutableFile(atPath: explicit) {
            return explicit
        }
        func binary(in directory: URL) -> String? {
            let candidate = directory.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                  files.isExecutableFile(atPath: candidate)
            else { return nil }
            return candidate
        }
        var starts: [URL] = []
        if let first = CommandLine.arguments.first, first.contains("/") {
            starts.append(URL(fileURLWithPath: first).standardizedFileURL)
        }
        starts.append(Bundle.main.bundleURL)
        if let path = Bundle.main.executablePath { starts.append(URL(fileURLWithPath: path)) }
        starts += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        for start in starts {
            var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                if let found = binary(in: directory) { return found }
                directory.deleteLastPathComponent()
            }
        }
        // #filePath is <package>/Tests/ProcessTestSupport/BuiltProduct.swift.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = package.appendingPathComponent(".build")
        var directories = [build.appendingPathComponent("debug"), build.appendingPathComponent("release")]
        for entry in (try? files.contentsOfDirectory(atPath: build.path)) ?? [] where entry.contains("-") {
            directories.append(build.appendingPathComponent(entry).appendingPathComponent("debug"))
            directories.append(build.appendingPathComponent(entry).appendingPathComponent("release"))
        }
        return directories.lazy.compactMap(binary(in:)).first
    }
}
