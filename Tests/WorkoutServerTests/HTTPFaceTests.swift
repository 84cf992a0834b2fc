import Crypto
import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// The HTTP face against the real server and store: a curl-like session, server-made ids that
/// make retries safe, Watch followed as a stream, and hostile HTTP clients that stay bounded
/// while a member on another address is served.
@Suite("The HTTP face over real connections")
struct HTTPFaceTests {
    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("Log in, log a weigh-in without an id, retry it with the same Idempotency-Key, read the week", arguments: [false, true])
    func curlSession(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let client = try HTTPTestClient(port: port)
                let login = try client.request("POST", "/workout.v1.AuthService/Login",
                                               body: Self.json(#"{"email": "\#(ownerEmail)", "password": "\#(ownerPassword)"}"#))
                #expect(login.status == 200 && login.header("content-type") == "application/json")
                client.token = try Workout_V1_LoginResponse(jsonUTF8Bytes: login.body).sessionToken
                #expect(client.token?.count == 32)

                let weighIn = Self.json(#"{"entry": {"weightKg": 71.5, "measuredAtMs": "\#(nowMilliseconds())"}}"#)
                let first = try client.request("POST", "/workout.v1.LoggingService/LogWeight", body: weighIn, headers: [("Idempotency-Key", "scale-1")])
                #expect(first.status == 200, "\(first.text)")
                let logged = try Workout_V1_LogWeightResponse(jsonUTF8Bytes: first.body)
                #expect(logged.entry.id.count == 16 && !logged.replayed && logged.profileWeightUpdated)
                // The id is PROTOCOL.md 25.4's recipe, computed here from its words, so a client
                // can predict it: SHA-256 over (SHA-256 over the label, a zero byte, the member,
                // the method, the key) and the record's index; the first 16 bytes, version 8.
                let member = try Workout_V1_LoginResponse(jsonUTF8Bytes: login.body).profile.userID
                var seed = Array("workout.v1 idempotency key".utf8) + [0] + Array(member)
                let method = MethodCatalog.logWeight.number
                seed += [UInt8(method >> 24), UInt8(method >> 16 & 0xFF), UInt8(method >> 8 & 0xFF), UInt8(method & 0xFF)]
                seed += Array("scale-1".utf8)
                var expected = Array(SHA256.hash(data: Array(SHA256.hash(data: seed)) + [0, 0, 0, 0]).prefix(16))
                expected[6] = (expected[6] & 0x0F) | 0x80
                expected[8] = (expected[8] & 0x3F) | 0x80
                #expect(Array(logged.entry.id) == expected, "PROTOCOL.md 25.4's recipe gives another id")
                let retry = try client.request("POST", "/workout.v1.LoggingService/LogWeight", body: weighIn, headers: [("Idempotency-Key", "scale-1")])
                let replayed = try Workout_V1_LogWeightResponse(jsonUTF8Bytes: retry.body)
                #expect(replayed.replayed && replayed.entry.id == logged.entry.id)
                let another = try Workout_V1_LogWeightResponse(jsonUTF8Bytes: client.request("POST", "/workout.v1.LoggingService/LogWeight", body: weighIn).body)
                #expect(!another.replayed && another.entry.id != logged.entry.id)

                var week = Workout_V1_SummariesRequest()
                week.fromDay = todayUTC(offsetDays: -6)
                week.toDay = todayUTC()
                week.granularity = .day
                let summaries = try client.call(MethodCatalog.summaries, week)
                #expect(summaries.periods.count == 7)
                let progress = try client.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest())
                #expect(Set(progress.entries.map(\.id)) == [logged.entry.id, another.entry.id])
            }
        }
    }

    @Test("A Connect client's defaults: gzip request bodies and gzip answers, through the real server", arguments: [false, true])
    func gzipBothWays(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let client = try HTTPTestClient(port: port)
                let gzip: [(String, String)] = [("Content-Encoding", "gzip"), ("Accept-Encoding", "gzip"), ("Connect-Protocol-Version", "1")]
                let login = try client.request("POST", "/workout.v1.AuthService/Login", body: Compression.deflate(
                    Self.json(#"{"email": "\#(ownerEmail)", "password": "\#(ownerPassword)"}"#), format: .gzip), headers: gzip)
                #expect(login.status == 200, "\(login.text)")
                // The login's answer (a session and a profile) is under the size worth compressing.
                #expect(login.header("content-encoding") == nil)
                client.token = try Workout_V1_LoginResponse(jsonUTF8Bytes: login.body).sessionToken
                let catalog = try client.request("POST", "/workout.v1.MetaService/DescribeCatalog", body: Compression.deflate(Self.json("{}"), format: .gzip), headers: gzip)
                #expect(catalog.status == 200 && catalog.header("content-encoding") == "gzip")
                let json = try Compression.inflate(catalog.body, maxSize: 1 << 20, format: .gzip)
                #expect(try Workout_V1_DescribeCatalogResponse(jsonUTF8Bytes: json).methods.count == MethodCatalog.all.count)
                #expect(catalog.body.count * 3 < json.count, "\(catalog.body.count) bytes in gzip for \(json.count)")
            }
        }
    }

    @Test("A day's meals by Connect's GET: 304 while unchanged, the new answer after a write, never another member's")
    func getIsNeverStale() async throws {
        try await withServer { _, _, port in
            try await blocking {
                let owner = try HTTPTestClient(port: port)
                _ = try owner.call(MethodCatalog.login, { var r = Workout_V1_LoginRequest(); r.email = ownerEmail; r.password = ownerPassword; return r }())
                let eatenAt = nowMilliseconds() - 3_600_000
                let date = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date(timeIntervalSince1970: Double(eatenAt) / 1000))
                let query = "connect=v1&encoding=json&message=" + #"{"day":{"year":\#(date.year!),"month":\#(date.month!),"day":\#(date.day!)},"timeZone":"UTC"}"#
                    .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let path = MethodCatalog.mealsOfDay.descriptor.httpPath + "?" + query
                func get(_ client: HTTPTestClient, _ tag: String?) throws -> HTTPTestClient.Response {
                    try client.request("GET", path, contentType: nil, headers: tag.map { [("If-None-Match", $0)] } ?? [])
                }
                let first = try get(owner, nil)
                #expect(first.status == 200 && first.header("cache-control") == "private, no-cache", "\(first.text)")
                let tag = try #require(first.header("etag"))
                let unchanged = try get(owner, tag)
                #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("etag") == tag)

                var log = Workout_V1_LogMealRequest()
                log.meal = meal(at: eatenAt)
                _ = try owner.call(MethodCatalog.logMeal, log)
                let changed = try get(owner, tag)
                #expect(changed.status == 200 && changed.header("etag") != tag)
                #expect(try Workout_V1_MealsOfDayResponse(jsonUTF8Bytes: changed.body).meals.map(\.id) == [log.meal.id])

                // Another member, whose day is as empty as the owner's was: not the owner's tag.
                let admin = try FaceClient.owner(.binary, port: port)
                let (_, registered) = try FaceClient.member(.binary, port: port, invitedBy: admin, email: "mia@example.com")
                let member = try HTTPTestClient(port: port)
                member.token = registered.sessionToken
                let theirs = try get(member, tag)
                #expect(theirs.status == 200 && theirs.header("etag") != tag)
                #expect(try Workout_V1_MealsOfDayResponse(jsonUTF8Bytes: theirs.body).meals.isEmpty)
            }
        }
    }

    @Test("An error answers Connect's JSON with the binary protocol's status, message and field")
    func errorsAsConnectJSON() async throws {
        try await withServer { _, _, port in
            try await blocking {
                let client = try HTTPTestClient(port: port)
                _ = try client.call(MethodCatalog.login, { var r = Workout_V1_LoginRequest(); r.email = ownerEmail; r.password = ownerPassword; return r }())
                let answer = try client.request("POST", "/workout.v1.LoggingService/LogWorkout",
                                                body: Self.json(#"{"workout": {"workoutType": "run", "durationSeconds": 0, "performedAtMs": "\#(nowMilliseconds())"}}"#))
                #expect(answer.status == 400)
                let failure = HTTPTestClient.failure(of: answer)
                #expect(failure.status == .invalidArgument && failure.details.field == "workout.duration_seconds")
                #expect(answer.text.contains(#""code":"invalid_argument""#))
                // The connection stays: the next call is served.
                #expect(try client.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == ownerEmail)
                // A revoked session is refused at once.
                _ = try client.call(MethodCatalog.logout, Workout_V1_LogoutRequest())
                let stale = try HTTPTestClient(port: port)
                stale.token = Data(repeating: 1, count: 32)
                let refused = try stale.request("POST", "/workout.v1.ProfileService/GetProfile", body: Self.json("{}"))
                #expect(refused.status == 401 && refused.header("connection") == "close")
            }
        }
    }

    @Test("A browser can follow Watch: a meal logged on another device arrives as a stream message")
    func watchOverHTTP() async throws {
        try await withServer(tls: true) { _, _, port in
            try await blocking {
                let browser = try HTTPTestClient(port: port)
                _ = try browser.call(MethodCatalog.login, { var r = Workout_V1_LoginRequest(); r.email = ownerEmail; r.password = ownerPassword; return r }())
                let stream = try HTTPStream(browser, MethodCatalog.watch, Workout_V1_WatchRequest())
                #expect(stream.head.status == 200 && stream.head.header("content-type") == "application/connect+json")
                var caughtUp = false
                for _ in 0..<100 where !caughtUp {
                    caughtUp = try #require(try stream.next()).caughtUp
                }
                #expect(caughtUp)
                let phone = try TestConnection.owner(port: port)
                var logMeal = Workout_V1_LogMealRequest()
                logMeal.meal = meal(items: 2)
                _ = try phone.call(MethodCatalog.logMeal, logMeal)
                var seen = false
                for _ in 0..<20 where !seen {
                    let event = try #require(try stream.next())
                    seen = event.changes.contains { $0.meal.id == logMeal.meal.id }
                }
                #expect(seen)
            }
        }
    }

    @Test("Hostile HTTP stays bounded and a member on another address is served throughout")
    func hostileHTTP() async throws {
        try await withServer(configure: {
            $0.frameTimeout = .seconds(1)
            $0.sessionlessIdleTimeout = .seconds(2)
        }) { server, _, port in
            try await blocking {
                var member = try HTTPTestClient(port: port, source: "127.0.0.9")
                _ = try member.call(MethodCatalog.login, { var r = Workout_V1_LoginRequest(); r.email = ownerEmail; r.password = ownerPassword; return r }())
                func memberServed() throws {
                    // The member's kept-alive connection may be closed while idle (two seconds
                    // without a session here, and the steps between calls took longer on a loaded
                    // machine); like any HTTP client it then connects again with its token.
                    let reply: Workout_V1_GetProfileResponse
                    do {
                        reply = try member.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest())
                    } catch is TestConnection.Closed {
                        let token = member.token
                        member = try HTTPTestClient(port: port, source: "127.0.0.9")
                        member.token = token
                        reply = try member.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest())
                    }
                    #expect(reply.profile.email == ownerEmail)
                }

                // A header that never ends: refused at the head's limit.
                let endless = try HTTPTestClient(port: port, source: "127.0.0.2")
                try endless.connection.write(Array("POST /workout.v1.MetaService/Health HTTP/1.1\r\nX-Long: ".utf8))
                // The server may refuse and close once the limit is passed, before all 20 KiB are
                // sent; a write then fails (EPIPE), and the refusal waits to be read.
                for _ in 0..<20 {
                    guard (try? endless.connection.write([UInt8](repeating: 0x61, count: 1_024))) != nil else { break }
                }
                #expect(try endless.readResponse().status == 431)
                try memberServed()

                // 10,000 headers.
                let many = try HTTPTestClient(port: port, source: "127.0.0.2")
                let fields = (0..<10_000).map { "X-\($0): 1\r\n" }.joined()
                try? many.connection.write(Array("POST /workout.v1.MetaService/Health HTTP/1.1\r\n\(fields)\r\n".utf8))
                #expect(try many.readResponse().status == 431)
                try memberServed()

                // A body shorter than its Content-Length, then silence: 408 after the frame timeout.
                let short = try HTTPTestClient(port: port, source: "127.0.0.3")
                try short.connection.write(Array("POST /workout.v1.MetaService/Health HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}".utf8))
                #expect(try short.readResponse().status == 408)
                try memberServed()

                // A slow sender: a byte every 100 ms never finishes its head within the frame timeout.
                let slow = try HTTPTestClient(port: port, source: "127.0.0.4")
                var refused = false
                for byte in Array("POST /workout.v1.MetaService/Health HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa".utf8) {
                    do {
                        try slow.connection.write([byte])
                    } catch {
                        refused = true
                        break
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                #expect(refused || slow.connection.isClosedByServer())
                try memberServed()

                // 1,000 kept-alive connections after one call each, from four addresses: the server
                // holds them within its limits and drops them after the idle time without a session.
                var idle: [HTTPTestClient] = []
                for index in 0..<1_000 {
                    guard let client = try? HTTPTestClient(port: port, source: "127.0.1.\(index % 4 + 1)") else { continue }
                    guard (try? client.call(MethodCatalog.health, Workout_V1_HealthRequest())) != nil else { continue }
                    idle.append(client)
                }
                #expect(idle.count == 1_000)
                #expect(server.openConnections <= 1_024)
                try memberServed()
                #expect(eventually(within: 10) { server.openConnections <= 2 })
                try memberServed()
            }
        }
    }
}
