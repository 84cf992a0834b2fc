import Crypto
package import WorkoutProtocol

/// A file the HTTP face serves as it is, for GET and HEAD (the household's dashboard): in gzip
/// to a browser that takes it, with a strong `ETag` so that a reload of an unchanged file is
/// a `304 Not Modified` of a few hundred bytes.
package struct StaticAsset: Sendable {
    /// Its `Content-Type`.
    package var contentType: String
    /// Its bytes.
    package var body: [UInt8]
    /// Its bytes in gzip, when that is shorter (made once, when the server starts).
    package let gzipped: [UInt8]?
    /// Its strong entity tag: `"` and the first 16 bytes of the body's SHA-256 in hex, `"`.
    package let entityTag: String

    /// A file of `contentType` holding `body`.
    package init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
        self.gzipped = ConnectProtocol.compressedIfSmaller(body)
        self.entityTag = EntityTag.quoted(SHA256.hash(data: body))
    }
}

/// What a path of the HTTP face leads to.
package enum HTTPRoute: Sendable {
    /// A method of the catalog (POST).
    case method(MethodDescriptor)
    /// A file (GET, HEAD).
    case asset(StaticAsset)
}

/// Where the HTTP face's paths lead: each method of the catalog at its Connect path
/// (`/workout.v1.AuthService/Login`), and at the short form of its catalog name
/// (`/workout.v1.Auth/Login`); the files of the dashboard at theirs. Made once per server.
package struct HTTPRoutes: Sendable {
    private let byPath: [String: HTTPRoute]

    /// The routes of `methods`, of the face's own `endpoints` (by path) and of `assets` (by
    /// path, e.g. `/` and `/app.js`).
    package init(methods: [UInt32: MethodDescriptor], endpoints: [String: MethodDescriptor] = [:], assets: [String: StaticAsset] = [:]) {
        var byPath: [String: HTTPRoute] = [:]
        for (path, asset) in assets { byPath[path] = .asset(asset) }
        for (path, descriptor) in endpoints { byPath[path] = .method(descriptor) }
        for descriptor in methods.values {
            byPath[descriptor.httpPath] = .method(descriptor)
            byPath["/workout.v1.\(descriptor.name.replacingDotWithSlash)"] = .method(descriptor)
        }
        self.byPath = byPath
    }

    /// What `path` (without its query) leads to, or `nil`.
    package func route(at path: Substring) -> HTTPRoute? {
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
