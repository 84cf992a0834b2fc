import Foundation
import ServerTestSupport
import SwiftProtobuf
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// Who may call what, through the real server and store, with every expectation drawn from the
/// catalog: every method (and every ingest endpoint) × no session, a member's session, an
/// admin's session, a device token of each scope, a signed token, on both faces. A call made
/// with an empty request is either refused by the authorization step (UNAUTHENTICATED for no
/// session, PERMISSION_DENIED for a token or a non-admin) or gets past it to the method, which
/// may then refuse the empty request for its own reasons.
@Suite("Authorization, every method × every caller, drawn from the catalog")
struct AuthorizationTableTests {
    /// Who calls.
    enum Credential: CaseIterable {
        case none, member, admin, readToken, logToken, importToken, signedToken

        /// The scopes of a device token; `nil` for a session or none.
        var scopes: [Workout_V1_TokenScope]? {
            switch self {
            case .readToken: [.read]
            case .logToken: [.log]
            case .importToken, .signedToken: [.import]
            case .none, .member, .admin: nil
            }
        }
    }

    /// What came of a call, as far as authorization goes.
    enum Verdict: Equatable {
        /// UNAUTHENTICATED: the call needs a session and had none.
        case needsSession
        /// PERMISSION_DENIED: a device token or a member may not call it.
        case denied
        /// Past the authorization step (whatever the method then answered).
        case passed
    }

    /// What the catalog says should come of `method` called by `credential` on `face`.
    static func expected(_ method: MethodDescriptor, _ credential: Credential, _ face: Face) -> Verdict {
        var credential = credential
        // On the binary face a signed token cannot bind a connection (Resume refuses it), so
        // its calls are calls without a session.
        if face == .binary, credential == .signedToken { credential = .none }
        switch credential {
        case .none:
            return method.needsSession ? .needsSession : .passed
        case .member:
            return method.adminOnly ? .denied : .passed
        case .admin:
            return .passed
        case .readToken, .logToken, .importToken, .signedToken:
            let scopes = Set(credential.scopes ?? [])
            return method.tokenAccess.allows(scopes: scopes, signed: credential == .signedToken) ? .passed : .denied
        }
    }

    /// The verdict of an answer: its code (Connect's name) and message.
    static func verdict(code: String, message: String) -> Verdict {
        switch code {
        case "unauthenticated" where message.contains("needs a session"): .needsSession
        case "permission_denied" where message.contains("device token") || message.contains("only an admin"): .denied
        default: .passed
        }
    }

    /// The methods in the order they are called: Logout last (it ends what the caller holds),
    /// Resume just before it (a failed Resume may end a binary connection's session).
    static func methods(for face: Face) -> [MethodDescriptor] {
        let last = [MethodCatalog.resume.number, MethodCatalog.logout.number]
        let catalog = MethodCatalog.all.filter { !last.contains($0.number) } + last.map { MethodCatalog.method(number: $0)! }
        return face == .http ? IngestRoutes.all + catalog : catalog
    }

    /// A caller of one face holding one credential.
    final class Caller {
        let face: Face
        let port: Int
        let token: Data?
        var binary: TestConnection?
        var http: HTTPTestClient?

        init(_ face: Face, port: Int, token: Data?) throws {
            self.face = face
            self.port = port
            self.token = token
            try connect()
        }

        func connect() throws {
            switch face {
            case .binary:
                let connection = try TestConnection(port: port)
                try connection.handshake()
                if let token {
                    var resume = Workout_V1_ResumeRequest()
                    resume.sessionToken = token
                    _ = try? connection.call(MethodCatalog.resume, resume)
                }
                binary = connection
            case .http:
                let client = try HTTPTestClient(port: port)
                client.token = token
                http = client
            }
        }

        /// Calls `method` with an empty request; its code and message.
        func call(_ method: MethodDescriptor) throws -> (code: String, message: String) {
            if let binary {
                let id = try binary.sendRequest(method: method.number, body: [], deadline: method.isServerStreaming ? 300 : nil)
                let (status, details) = try TestConnection.status(of: binary.finalFrame(of: id))
                return (status == .ok ? "ok" : status.name.lowercased(), details.message)
            }
            let client = http!
            let path = IngestRoutes.byPath.first { $0.value == method }?.key ?? method.httpPath
            let answer: HTTPTestClient.Response
            if method.isServerStreaming {
                answer = try client.request(
                    "POST", path, contentType: "application/connect+json", body: [0, 0, 0, 0, 2] + Array("{}".utf8),
                    headers: [("Connect-Timeout-Ms", "300")])
            } else {
                answer = try client.request("POST", path, body: Array("{}".utf8))
            }
            // A 401 to a request with a bearer token ends the connection (PROTOCOL.md 25.3).
            if answer.status == 401 || answer.header("connection") == "close" { try connect() }
            if answer.status != 200 {
                let failure = HTTPTestClient.failure(of: answer)
                return (failure.status.name.lowercased(), failure.details.message)
            }
            guard method.isServerStreaming else { return ("ok", "") }
            // The stream's last envelope is its end: `{}` or `{"error": {...}}`.
            struct End: Decodable {
                struct Error: Decodable { var code: String; var message: String? }
                var error: Error?
            }
            var offset = 0
            var end = End()
            while offset + 5 <= answer.body.count {
                let length = answer.body[(offset + 1)..<(offset + 5)].reduce(0) { $0 << 8 | Int($1) }
                let message = Array(answer.body[(offset + 5)..<min(answer.body.count, offset + 5 + length)])
                if answer.body[offset] & 2 != 0 { end = try JSONDecoder().decode(End.self, from: Data(message)) }
                offset += 5 + length
            }
            return (end.error?.code ?? "ok", end.error?.message ?? "")
        }
    }

    @Test("Every method × no session, member, admin, each scope, a signed token: as the catalog says", arguments: Face.allCases)
    func everyMethodEveryCaller(face: Face) async throws {
        try await withServer { _, _, port in
            try await blocking {
                let owner = try FaceClient.owner(.binary, port: port)
                var tokens: [Credential: Data] = [:]
                for credential in Credential.allCases {
                    switch credential {
                    case .none:
                        break
                    case .admin:
                        var login = Workout_V1_LoginRequest()
                        login.email = ownerEmail
                        login.password = ownerPassword
                        let connection = try TestConnection(port: port)
                        try connection.handshake()
                        tokens[.admin] = try connection.call(MethodCatalog.login, login).sessionToken
                    case .member:
                        var invite = Workout_V1_CreateInviteRequest()
                        invite.role = .member
                        let code = try owner.call(MethodCatalog.createInvite, invite).code
                        let connection = try TestConnection(port: port)
                        try connection.handshake()
                        let registered = try connection.call(MethodCatalog.register, registerRequest(code: code, email: "mia@example.com", password: "member password 1"))
                        tokens[.member] = registered.sessionToken
                    case .readToken, .logToken, .importToken, .signedToken:
                        var request = Workout_V1_CreateDeviceTokenRequest()
                        request.name = "\(credential)"
                        request.scopes = credential.scopes ?? []
                        request.signed = credential == .signedToken
                        tokens[credential] = try owner.call(MethodCatalog.createDeviceToken, request).token
                    }
                }
                var checked = 0
                for credential in Credential.allCases {
                    let caller = try Caller(face, port: port, token: tokens[credential])
                    for method in Self.methods(for: face) {
                        let (code, message) = try caller.call(method)
                        let verdict = Self.verdict(code: code, message: message)
                        #expect(verdict == Self.expected(method, credential, face), "\(face) \(credential) \(method.name): \(code) \(message)")
                        checked += 1
                    }
                }
                #expect(checked == Credential.allCases.count * Self.methods(for: face).count)
            }
        }
    }

    @Test("PROTOCOL.md's table of what device tokens may call is the one the catalog writes")
    func tokenTableIsGenerated() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let spec = try String(contentsOf: root.appendingPathComponent("Protocol/PROTOCOL.md"), encoding: .utf8)
        let expected = "<!-- tokens:begin -->\n" + MethodCatalog.deviceTokenTable(endpoints: IngestRoutes.all) + "\n<!-- tokens:end -->"
        #expect(spec.contains(expected), "run scripts/generate-catalog.sh")
    }
}
