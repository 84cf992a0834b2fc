/// The household's dashboard: a small web app (plain HTML, CSS and JavaScript modules, no build
/// tooling) that `workoutd` serves at `/` on its HTTP face. Its files live in `Web/` and are
/// compiled into the binary at build time by the `EmbedDashboard` plugin (see README.md beside
/// this file).
package enum Dashboard {
    /// Every file of the app, at its path (`/app.js`).
    package static var files: [DashboardFile] { generatedFiles }

    /// What the HTTP face serves: every file at its path, and `index.html` at `/` too.
    package static var routes: [String: DashboardFile] {
        var routes: [String: DashboardFile] = [:]
        for file in files {
            routes[file.path] = file
            if file.path == "/index.html" { routes["/"] = file }
        }
        return routes
    }
}

/// One file of the dashboard.
package struct DashboardFile: Sendable {
    /// Its path on the server, from the root (`/app.js`).
    package let path: String
    /// Its `Content-Type`, with the charset for text.
    package let contentType: String
    /// Its contents (every file of the app is UTF-8 text).
    package let text: String

    /// Its bytes, as served.
    package var bytes: [UInt8] { Array(text.utf8) }
}
