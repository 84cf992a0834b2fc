package import WorkoutProtocol

/// Where the HTTP face's paths lead: each method of the catalog at its Connect path
/// (`/workout.v1.AuthService/Login`), and at the short form of its catalog name
/// (`/workout.v1.Auth/Login`). Made once per server, from the methods it serves.
package struct HTTPRoutes: Sendable {
    private let byPath: [String: MethodDescriptor]

    /// The routes of `methods`.
    package init(methods: [UInt32: MethodDescriptor]) {
        var byPath: [String: MethodDescriptor] = [:]
        for descriptor in methods.values {
            byPath[descriptor.httpPath] = descriptor
            byPath["/workout.v1.\(descriptor.name.replacingDotWithSlash)"] = descriptor
        }
        self.byPath = byPath
    }

    /// The method at `path` (without its query), or `nil`.
    package func method(at path: Substring) -> MethodDescriptor? {
        byPath[String(path)]
    }
}

extension String {
    /// `Auth.Login` as `Auth/Login`.
    fileprivate var replacingDotWithSlash: String {
        guard let dot = firstIndex(of: ".") else { return self }
        return String(self[..<dot]) + "/" + String(self[index(after: dot)...])
    }
}
