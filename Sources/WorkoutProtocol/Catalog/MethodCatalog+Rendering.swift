/// The catalog written out for the places outside Swift that name methods: PROTOCOL.md's
/// table, the comment above each `rpc` in the .proto files, and `Protocol/catalog.json`,
/// which the vector generator reads. ``MethodCatalog`` is the one place a method is declared;
/// `scripts/generate-catalog.sh` writes these from it, and a test checks that what is
/// committed is what it writes.
extension MethodCatalog {
    /// The markdown table of PROTOCOL.md section 22.
    package static func markdownTable() -> String {
        var lines = [
            "| # | name | request | response | kind | session | admin |",
            "| ---: | --- | --- | --- | --- | :---: | :---: |",
        ]
        for method in all {
            let cells = [
                "\(method.number)", method.name, shortName(method.requestType), shortName(method.responseType),
                method.isServerStreaming ? "server streaming" : "unary",
                method.needsSession ? "✓" : "–", method.adminOnly ? "✓" : "–",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// PROTOCOL.md 17's table of what device tokens may call, from each method's
    /// ``MethodDescriptor/tokenAccess``: the catalog's methods and the HTTP face's own
    /// `endpoints` (the ingest endpoints, which the server declares).
    package static func deviceTokenTable(endpoints: [MethodDescriptor]) -> String {
        let rows: [(DeviceTokenAccess, String)] = [
            (.anyToken, "every token, signed too"),
            (.ownSession, "every unsigned token"),
            (.scope(.read), "`read`"),
            (.scope(.log), "`log`"),
            (.scope(.import), "`import`"),
            (.signedPost, "`import`, signed too"),
            (.none, "no token"),
        ]
        var lines = ["| device tokens | methods |", "|---|---|"]
        for (access, who) in rows {
            let names = (all + endpoints).filter { $0.tokenAccess == access }.map { "`\($0.name)`" }
            lines.append("| \(who) | \(names.isEmpty ? "–" : names.joined(separator: ", ")) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The comment line above the method's `rpc` in its .proto service.
    package static func protoComment(for method: MethodDescriptor) -> String {
        let kind = method.isServerStreaming ? "Server streaming." : "Unary."
        let access = !method.needsSession ? "No session needed." : method.adminOnly ? "Session, admin-only." : "Session."
        return "// Method \(method.number), \"\(method.name)\". \(kind) \(access)"
    }

    /// `Protocol/catalog.json`: one object per method, in number order, keys sorted.
    package static func json() -> String {
        let entries = all.map { method in
            """
              {"admin_only": \(method.adminOnly), "device_tokens": "\(method.tokenAccess.name)", \
            "name": "\(method.name)", "needs_session": \(method.needsSession), \
            "number": \(method.number), "request": "\(shortName(method.requestType))", \
            "response": "\(shortName(method.responseType))", "server_streaming": \(method.isServerStreaming)}
            """
        }
        return "[\n" + entries.joined(separator: ",\n") + "\n]\n"
    }

    /// `workout.v1.LoginRequest` → `LoginRequest`.
    private static func shortName(_ type: String) -> String {
        String(type.split(separator: ".").last ?? Substring(type))
    }
}
