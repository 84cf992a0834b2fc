import Foundation
import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// The HTTP face's rules in the connection machine, in memory: which bytes make a request,
/// what each refusal answers, sessions by bearer token, limits and time.
@Suite("The connection machine's HTTP face")
struct HTTPMachineTests {
    /// A machine that took `bytes` as its first bytes; what it wrote, as text.
    struct Exchange {
        var harness: ServerMachineHarness

        init(limits: ServerConnectionMachine.Limits = .init()) {
            harness = ServerMachineHarness(limits: limits, handshake: false)
        }

        mutating func send(_ text: String) { harness.send(bytes: Array(text.utf8)) }

        /// What the machine wrote since the last read, marked as written.
        mutating func read() -> String {
            let bytes = harness.machine.output.withUnreadBytes { Array($0) }
            harness.record(harness.machine.wrote(bytes.count, now: harness.now), replacing: false)
            return String(decoding: bytes, as: UTF8.self)
        }

        var runs: [ServerCallStart] {
            harness.actions.compactMap { if case .run(let call) = $0 { call } else { nil } }
        }

        var tokensAsked: [[UInt8]] {
            harness.actions.compactMap { if case .authenticate(let token) = $0 { token } else { nil } }
        }

        mutating func authenticated(_ result: Result<[UInt8], CallFailure>) {
            harness.record(harness.machine.authenticated(result, now: harness.now))
        }
    }

    static func post(_ path: String, _ body: String, headers: [String] = []) -> String {
        var text = "POST \(path) HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        for header in headers { text += header + "\r\n" }
        return text + "\r\n" + body
    }

    static let token = Data(repeating: 0xAB, count: 32)
    static var bearer: String { "Authorization: Bearer \(token.base64EncodedString())" }

    @Test("A first byte A-Z other than W makes the connection HTTP; the preface's W keeps it binary", arguments: [
        ("GET / HTTP/1.1\r\n", ServerConnectionMachine.Face.http),
        ("POST /x HTTP/1.1\r\n", .http),
        ("WKRP", .binary),
        ("\u{16}\u{03}\u{01}", .binary),
        ("get / HTTP/1.1\r\n", .binary),
    ])
    func faceByFirstByte(bytes: String, face: ServerConnectionMachine.Face) {
        var exchange = Exchange()
        exchange.send(bytes)
        #expect(exchange.harness.machine.face == face)
    }

    @Test("A unary JSON call runs with its body as protobuf, and its answer is JSON with a length; the connection stays")
    func unaryJSON() throws {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.MetaService/Health", "{}"))
        let call = try #require(exchange.runs.first)
        #expect(call.method == MethodCatalog.health.number && call.body.isEmpty)
        var health = Workout_V1_HealthResponse()
        health.serving = true
        health.serverVersion = "1.2.3"
        exchange.harness.finish(call.callID, .success(try health.serializedBytes()))
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.contains("Content-Type: application/json\r\n"))
        #expect(answer.hasSuffix(#"{"serving":true,"serverVersion":"1.2.3"}"#))
        #expect(!answer.contains("Connection: close"))
        #expect(!exchange.harness.closed)
        // The short path of the catalog's name leads to the same method.
        exchange.send(Self.post("/workout.v1.Meta/Health", "{}"))
        #expect(exchange.runs.first?.method == MethodCatalog.health.number)
    }

    @Test("Refusals before a method runs answer Connect's JSON error with their HTTP status, then close", arguments: [
        ("GET /workout.v1.AuthService/Login HTTP/1.1\r\n\r\n", "405", "unimplemented"),
        ("GET /workout.v1.MetaService/Health HTTP/1.1\r\n\r\n", "400", "invalid_argument"),
        ("POST /nowhere HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", "404", "unimplemented"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", "415", "unimplemented"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\n\r\n", "411", "invalid_argument"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", "411", "invalid_argument"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: x\r\n\r\n", "400", "invalid_argument"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnect-Timeout-Ms: soon\r\n\r\n{}", "400", "invalid_argument"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nAuthorization: Basic eDp5\r\n\r\n{}", "401", "unauthenticated"),
        ("POST /workout.v1.MetaService/Health HTTP/2\r\n\r\n", "505", "unimplemented"),
        ("POST /workout.v1.MetaService/Health HTTP/1.1\r\n folded: header\r\n\r\n", "400", "invalid_argument"),
        ("POST /workout.v1.AuthService/Login HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 9999999\r\n\r\n", "413", "resource_exhausted"),
        // Bytes no request line can hold are refused as they arrive, not after the request's
        // time runs out: another protocol's greeting, a control byte, a byte above ASCII.
        ("XKRP\u{01}\u{01}\u{00}\u{00}", "400", "invalid_argument"),
        ("GET /caf\u{E9}", "400", "invalid_argument"),
        ("PO(ST /", "400", "invalid_argument"),
    ])
    func refusals(request: String, status: String, code: String) {
        var exchange = Exchange()
        exchange.send(request)
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(answer)")
        #expect(answer.contains(#""code":"\#(code)""#), "\(answer)")
        #expect(answer.contains("Connection: close"))
        #expect(exchange.runs.isEmpty)
        #expect(exchange.harness.closed)
    }

    @Test("A request line still arriving, in pieces up to a lone carriage return, is waited for, not refused")
    func requestLineInPieces() {
        var exchange = Exchange()
        for piece in ["PO", "ST /workout.v1.Meta", "Service/Health HTTP/1.1\r"] {
            exchange.send(piece)
            #expect(exchange.read().isEmpty, "refused after \(piece)")
            #expect(!exchange.harness.closed)
        }
        exchange.send("\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        #expect(exchange.runs.count == 1)
    }

    @Test("A body that is not the method's JSON is INVALID_ARGUMENT naming the type, and the connection stays")
    func badJSON() {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.AuthService/Login", #"{"emial": "a@b.c"}"#))
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"))
        #expect(answer.contains("workout.v1.LoginRequest"))
        #expect(!exchange.harness.closed)
    }

    @Test("A method that needs a session answers 401 without a token; with one, the token is resolved once per connection")
    func bearerSessions() throws {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}"))
        #expect(exchange.read().hasPrefix("HTTP/1.1 401 Unauthorized"))
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        #expect(exchange.tokensAsked == [Array(Self.token)])
        #expect(exchange.runs.isEmpty)
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let first = try #require(exchange.runs.first)
        exchange.harness.finish(first.callID, .success([]))
        #expect(exchange.read().hasPrefix("HTTP/1.1 200 OK"))
        // The same token again: no second lookup.
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        #expect(exchange.tokensAsked.isEmpty)
        #expect(exchange.runs.count == 1)
    }

    @Test("A request without a token runs as no one even after another carried one, so a browser can sign in anew on a kept-alive connection")
    func callsWithoutTokenRunAsNoOne() throws {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let profile = try #require(exchange.runs.first)
        #expect(profile.speaksForSession)
        exchange.harness.finish(profile.callID, .success([]))
        #expect(exchange.read().hasPrefix("HTTP/1.1 200 OK"))
        exchange.send(Self.post("/workout.v1.AuthService/Login", #"{"email":"b@example.com","password":"pw"}"#))
        let login = try #require(exchange.runs.first)
        #expect(login.method == MethodCatalog.login.number && !login.speaksForSession)
    }

    @Test("A session that ends while its connection is kept (revoked, expired) is answered 401 and the connection closes, as for an unknown token")
    func endedSession() throws {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let first = try #require(exchange.runs.first)
        exchange.harness.finish(first.callID, .success([]))
        #expect(exchange.read().hasPrefix("HTTP/1.1 200 OK"))
        #expect(!exchange.harness.closed)
        // The token is revoked elsewhere; the next call's own check finds the session gone.
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        let second = try #require(exchange.runs.first)
        exchange.harness.finish(second.callID, .failure(CallFailure(.unauthenticated, "the session has expired or was revoked; log in again")))
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 401 Unauthorized") && answer.contains("Connection: close"), "\(answer)")
        #expect(exchange.harness.closed)
    }

    @Test("A wrong password (a 401 of a request without a token) keeps the connection, so the person can try again")
    func wrongPasswordKeepsConnection() throws {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.AuthService/Login", #"{"email":"b@example.com","password":"pw"}"#))
        let login = try #require(exchange.runs.first)
        exchange.harness.finish(login.callID, .failure(CallFailure(.unauthenticated, "the email or password is wrong")))
        #expect(exchange.read().hasPrefix("HTTP/1.1 401 Unauthorized"))
        #expect(!exchange.harness.closed)
    }

    @Test("A bearer token the server does not know is answered 401 and the connection closes")
    func unknownToken() {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        exchange.authenticated(.failure(CallFailure(.unauthenticated, "the session has expired or was revoked; log in again")))
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 401 Unauthorized"))
        #expect(answer.contains("log in again"))
        #expect(exchange.harness.closed)
    }

    @Test("A write without an id gets one: the same Idempotency-Key gives the same id, none gives a new one")
    func serverMadeIDs() throws {
        func logWeight(key: String?) throws -> Data {
            var exchange = Exchange()
            let headers = [Self.bearer] + (key.map { ["Idempotency-Key: \($0)"] } ?? [])
            exchange.send(Self.post("/workout.v1.LoggingService/LogWeight", #"{"entry": {"weightKg": 71.5, "measuredAtMs": "1764000000000"}}"#, headers: headers))
            exchange.authenticated(.success(Array(repeating: 7, count: 16)))
            let call = try #require(exchange.runs.first)
            let request = try Workout_V1_LogWeightRequest(serializedBytes: call.body)
            #expect(request.entry.weightKg == 71.5 && request.entry.id.count == 16)
            return request.entry.id
        }
        #expect(try logWeight(key: "scale-2026-11-26") == (try logWeight(key: "scale-2026-11-26")))
        #expect(try logWeight(key: "scale-2026-11-26") != (try logWeight(key: "scale-2026-11-27")))
        #expect(try logWeight(key: nil) != (try logWeight(key: nil)))
    }

    @Test("A head that never ends is refused at its limit with 431; so are too many fields")
    func headLimits() {
        var limits = ServerConnectionMachine.Limits()
        limits.maxHTTPHeadBytes = 1_024
        limits.maxHTTPHeaderCount = 10
        var endless = Exchange(limits: limits)
        endless.send("POST /workout.v1.MetaService/Health HTTP/1.1\r\n")
        for index in 0..<40 { endless.send("X-Filler-\(index): \(String(repeating: "a", count: 40))\r\n") }
        #expect(endless.read().hasPrefix("HTTP/1.1 431 "))
        #expect(endless.harness.closed)
        var many = Exchange(limits: limits)
        many.send("POST /workout.v1.MetaService/Health HTTP/1.1\r\n" + (0..<11).map { "X-\($0): 1\r\n" }.joined() + "\r\n")
        #expect(many.read().contains("more than 10 header fields"))
    }

    @Test("A request that does not arrive whole within the frame timeout is answered 408 and closed")
    func slowRequest() {
        var limits = ServerConnectionMachine.Limits()
        limits.frameTimeout = .seconds(2)
        var exchange = Exchange(limits: limits)
        exchange.send("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{")
        exchange.harness.tick(at: 1_500)
        #expect(!exchange.harness.closed)
        exchange.harness.tick(at: 2_001)
        #expect(exchange.read().hasPrefix("HTTP/1.1 408 "))
        #expect(exchange.harness.closed)
    }

    @Test("A kept-alive connection without a session closes after the sessionless idle time, with one after the HTTP idle time")
    func keepAliveIdle() throws {
        var limits = ServerConnectionMachine.Limits()
        limits.sessionlessIdleTimeout = .seconds(5)
        limits.httpIdleTimeout = .seconds(60)
        var anonymous = Exchange(limits: limits)
        anonymous.send(Self.post("/workout.v1.MetaService/Health", "{}"))
        anonymous.harness.finish(try #require(anonymous.runs.first).callID, .success([]))
        _ = anonymous.read()
        anonymous.harness.tick(at: 5_001)
        #expect(anonymous.harness.closed)

        var member = Exchange(limits: limits)
        member.send(Self.post("/workout.v1.ProfileService/GetProfile", "{}", headers: [Self.bearer]))
        member.authenticated(.success(Array(repeating: 1, count: 16)))
        member.harness.finish(try #require(member.runs.first).callID, .success([]))
        _ = member.read()
        member.harness.tick(at: 30_000)
        #expect(!member.harness.closed)
        member.harness.tick(at: 60_001)
        #expect(member.harness.closed)
    }

    @Test("After the requests-per-connection limit the answer says Connection: close and the connection ends")
    func requestsPerConnection() throws {
        var limits = ServerConnectionMachine.Limits()
        limits.maxHTTPRequestsPerConnection = 2
        var exchange = Exchange(limits: limits)
        for round in 1...2 {
            exchange.send(Self.post("/workout.v1.MetaService/Health", "{}"))
            exchange.harness.finish(try #require(exchange.runs.first).callID, .success([]))
            let answer = exchange.read()
            #expect(answer.contains("Connection: close") == (round == 2))
        }
        #expect(exchange.harness.closed)
    }

    @Test("Pipelined requests are answered in order, one call at a time")
    func pipelining() throws {
        var exchange = Exchange()
        exchange.send(Self.post("/workout.v1.MetaService/Health", "{}") + Self.post("/workout.v1.MetaService/DescribeCatalog", "{}"))
        let first = try #require(exchange.runs.first)
        #expect(exchange.runs.count == 1 && first.method == MethodCatalog.health.number)
        exchange.harness.finish(first.callID, .success([]))
        let second = try #require(exchange.runs.first)
        #expect(second.method == MethodCatalog.describeCatalog.number)
        exchange.harness.finish(second.callID, .success([]))
        #expect(exchange.read().components(separatedBy: "HTTP/1.1 200 OK").count == 3)
    }

    @Test("A stream answers a chunked head at once, one envelope per message, and an end envelope with the error")
    func streaming() throws {
        var exchange = Exchange()
        var body: [UInt8] = [0, 0, 0, 0, 2]
        body += Array("{}".utf8)
        var head = "POST /workout.v1.StreamsService/Watch HTTP/1.1\r\nContent-Type: application/connect+json\r\n"
        head += "Content-Length: \(body.count)\r\n\(Self.bearer)\r\n\r\n"
        exchange.harness.send(bytes: Array(head.utf8) + body)
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let call = try #require(exchange.runs.first)
        #expect(exchange.read().hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/connect+json"))
        var event = Workout_V1_WatchEvent()
        event.revision = 9
        exchange.harness.streamMessage(call.callID, try event.serializedBytes())
        let chunk = exchange.read()
        #expect(chunk.contains(#"{"revision":"9"}"#))
        exchange.harness.finish(call.callID, .failure(CallFailure(.unauthenticated, "the session ended")))
        let end = exchange.read()
        #expect(end.contains(#"{"error":{"code":"unauthenticated","message":"the session ended"}}"#))
        #expect(end.hasSuffix("0\r\n\r\n"))
    }
}

/// Files served for GET and HEAD, with the headers that keep a page to itself.
@Suite("The connection machine's HTTP face: files")
struct HTTPAssetMachineTests {
    static let routes = HTTPRoutes(
        methods: ServerMachineHarness.methods,
        assets: ["/": StaticAsset(contentType: "text/html; charset=utf-8", body: Array("<!doctype html><title>W</title>".utf8))])

    @Test("GET / answers the file with a strict Content-Security-Policy; HEAD its head; POST is 405")
    func files() {
        var harness = ServerMachineHarness(handshake: false)
        harness.machine = ServerConnectionMachine(limits: .init(), methods: ServerMachineHarness.methods, httpRoutes: Self.routes, now: .zero)
        harness.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\nHEAD / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        let answer = harness.machine.output.withUnreadBytes { String(decoding: $0, as: UTF8.self) }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"))
        #expect(answer.contains("Content-Security-Policy: default-src 'none'; script-src 'self';"))
        #expect(answer.contains("X-Content-Type-Options: nosniff"))
        #expect(answer.components(separatedBy: "<title>W</title>").count == 2, "the HEAD answer has no body")
        #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        harness.send(bytes: Array("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n".utf8))
        let refusal = harness.machine.output.withUnreadBytes { String(decoding: $0, as: UTF8.self) }
        #expect(refusal.contains("HTTP/1.1 405 Method Not Allowed"))
    }
}
