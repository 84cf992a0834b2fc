import Foundation

// workout-embed-dashboard WEB OUTPUT: writes OUTPUT, a Swift file holding every file of the
// WEB folder as a raw string literal with its path and content type (the EmbedDashboard build
// plugin runs it). A file of an unknown kind, one that is not UTF-8, holds a carriage return or
// does not end with a newline stops the build, saying which and why.

let contentTypes = [
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml",
    "webmanifest": "application/manifest+json",
]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("workout-embed-dashboard: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: workout-embed-dashboard WEB OUTPUT") }
let web = URL(fileURLWithPath: arguments[1])
let output = URL(fileURLWithPath: arguments[2])

var entries = ""
let names: [String]
do {
    names = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { !$0.hasPrefix(".") }.sorted()
} catch {
    fail("\(web.path): \(error.localizedDescription)")
}
for name in names {
    let path = web.appendingPathComponent(name)
    let kind = path.pathExtension
    guard let contentType = contentTypes[kind] else { fail("\(path.path): no content type for \(kind.isEmpty ? "a file without extension" : "." + kind)") }
    guard let data = FileManager.default.contents(atPath: path.path), let text = String(data: data, encoding: .utf8) else {
        fail("\(path.path): not readable as UTF-8 text")
    }
    guard !text.contains("\r") else { fail("\(path.path): carriage returns are not kept by a Swift string literal") }
    guard text.hasSuffix("\n") else { fail("\(path.path): must end with a newline") }
    // A raw string's delimiter needs more '#' than any run of them in the text.
    var longestRun = 0
    var run = 0
    for character in text {
        run = character == "#" ? run + 1 : 0
        longestRun = max(longestRun, run)
    }
    let hashes = String(repeating: "#", count: longestRun + 1)
    entries += """
            DashboardFile(
                path: "/\(name)", contentType: "\(contentType)",
                text: \(hashes)\"\"\"
    \(text)
    \"\"\"\(hashes)),

    """
}
let source = """
// Generated at build time by the EmbedDashboard plugin from Sources/WorkoutDashboard/Web.

extension Dashboard {
    /// The web files, by name order.
    static let generatedFiles: [DashboardFile] = [
\(entries)    ]
}

"""
do {
    try Data(source.utf8).write(to: output, options: .atomic)
} catch {
    fail("\(output.path): \(error.localizedDescription)")
}
