import Foundation
import Testing
import WorkoutDashboard

/// The web folder, found from this file (Tests/WorkoutDashboardTests → Sources/WorkoutDashboard/Web).
private let webFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/WorkoutDashboard/Web")

private func webFiles() throws -> [String: Data] {
    let names = try FileManager.default.contentsOfDirectory(atPath: webFolder.path).filter { !$0.hasPrefix(".") }
    var files: [String: Data] = [:]
    for name in names {
        files["/\(name)"] = try Data(contentsOf: webFolder.appendingPathComponent(name))
    }
    return files
}

@Suite struct DashboardFilesTests {
    @Test func theCompiledFilesAreTheWebFolderAsItIsNow() throws {
        let onDisk = try webFiles()
        let compiled = Dashboard.files
        #expect(Set(compiled.map(\.path)) == Set(onDisk.keys), "the EmbedDashboard plugin missed a file")
        for file in compiled {
            #expect(onDisk[file.path] == Data(file.bytes), "\(file.path) differs from Web/: the EmbedDashboard plugin did not run again")
        }
    }

    @Test func theWholeAppWeighsUnder150KB() {
        let total = Dashboard.files.reduce(0) { $0 + $1.bytes.count }
        #expect(total > 0)
        #expect(total < 150 * 1024, "the dashboard weighs \(total) bytes")
    }

    @Test func thePageIsServedAtTheRootAndEveryFileHasATextType() throws {
        let routes = Dashboard.routes
        #expect(routes["/"]?.path == "/index.html")
        for file in Dashboard.files {
            #expect(file.contentType.hasSuffix("charset=utf-8"), "\(file.path)")
        }
    }

    /// What the Content-Security-Policy would refuse at run time, and what would let a member's
    /// text become markup, caught before a browser sees it.
    @Test(arguments: ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", " style=", "<style", "onclick=\"", "http://", "https://"])
    func noFileUsesAForbiddenConstruct(_ construct: String) {
        for file in Dashboard.files {
            // The SVG namespace is a name, not an address the page fetches.
            let text = file.text.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
            #expect(!text.contains(construct), "\(file.path) contains \(construct)")
        }
    }

    @Test func theOnlyScriptOfThePageIsAModuleFile() {
        let page = Dashboard.routes["/"]?.text ?? ""
        let scripts = page.components(separatedBy: "<script").count - 1
        #expect(scripts == 1)
        #expect(page.contains("<script type=\"module\" src=\"/app.js\"></script>"))
    }
}
