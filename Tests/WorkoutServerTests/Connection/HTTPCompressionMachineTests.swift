import Foundation
import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// gzip both ways on the HTTP face, as Connect specifies: request bodies and stream messages
/// taken in gzip (bounded like any body), answers in gzip when the client asks; Connect's GET
/// form of the methods without side effects, with an ETag and 304; the dashboard's files with
/// a strong ETag, 304 and gzip.
@Suite("The connection machine's HTTP face: compression, Connect's GET and revalidation")
struct HTTPCompressionMachineTests {
    typealias Exchange = HTTPMachineTests.Exchange

    static func post(_ path: String, _ body: [UInt8], headers: [String], type: String = "application/json") -> [UInt8] {
        var text = "POST \(path) HTTP/1.1\r\nHost: h\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
        for header in headers { text += header + "\r\n" }
        return Array((text + "\r\n").utf8) + body
    }

    static func gzip(_ text: String) -> [UInt8] { Compression.deflate(Array(text.utf8), format: .gzip) }

    @Test("A gzip request body is inflated before it is read as the method's JSON")
    func gzipRequest() throws {
        var exchange = Exchange()
        let login = #"{"email": "mia@example.com", "password": "correct horse"}"#
        exchange.harness.send(bytes: Self.post("/workout.v1.AuthService/Login", Self.gzip(login), headers: ["Content-Encoding: gzip"]))
        let call = try #require(exchange.runs.first)
        let request = try Workout_V1_LoginRequest(serializedBytes: call.body)
        #expect(request.email == "mia@example.com" && request.password == "correct horse")
    }

    @Test("A gzip body that is damaged, or inflates past the body limit, is refused; an unknown coding is 415 naming gzip", arguments: [
        ("damaged", "400", "invalid_argument"),
        ("bomb", "429", "resource_exhausted"),
        ("br", "415", "unimplemented"),
    ])
    func gzipRefusals(kind: String, status: String, code: String) {
        var limits = ServerConnectionMachine.Limits()
        limits.maxFrameSizeWithoutSession = 64 << 10
        var exchange = Exchange(limits: limits)
        switch kind {
        case "damaged":
            var body = Self.gzip(#"{"email": "mia@example.com"}"#)
            body[body.count / 2] ^= 0xFF
            exchange.harness.send(bytes: Self.post("/workout.v1.AuthService/Login", body, headers: ["Content-Encoding: gzip"]))
        case "bomb":
            // 2 MiB of spaces inside a JSON object: a few KiB in gzip, far past the 64 KiB
            // a request without a session may hold.
            let bomb = "{" + String(repeating: " ", count: 2 << 20) + "}"
            exchange.harness.send(bytes: Self.post("/workout.v1.AuthService/Login", Self.gzip(bomb), headers: ["Content-Encoding: gzip"]))
        default:
            exchange.harness.send(bytes: Self.post("/workout.v1.AuthService/Login", Array("{}".utf8), headers: ["Content-Encoding: br"]))
        }
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(answer.prefix(200))")
        #expect(answer.contains(#""code":"\#(code)""#), "\(answer.prefix(400))")
        #expect(exchange.runs.isEmpty)
        if kind == "br" { #expect(answer.contains("Accept-Encoding: gzip\r\n")) }
    }

    @Test("An answer is gzip when the client accepts it and it is large enough; else as it is")
    func gzipAnswers() throws {
        var description = Workout_V1_DescribeCatalogResponse()
        description.methods = MethodCatalog.all.map(\.wire)
        let body: [UInt8] = try description.serializedBytes()
        for (accept, gzipped) in [
            ("Accept-Encoding: gzip, deflate, br", true), ("Accept-Encoding: gzip;q=0, identity", false), ("", false),
            ("Accept-Encoding: *;q=0, gzip", true), ("Accept-Encoding: br, *", true), ("Accept-Encoding: *, gzip;q=0", false),
        ] {
            var exchange = Exchange()
            exchange.harness.send(bytes: Self.post("/workout.v1.MetaService/DescribeCatalog", Array("{}".utf8), headers: accept.isEmpty ? [] : [accept]))
            let call = try #require(exchange.runs.first)
            exchange.harness.finish(call.callID, .success(body))
            let bytes = exchange.harness.machine.output.withUnreadBytes { Array($0) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(text.contains("Content-Encoding: gzip\r\n") == gzipped, "\(accept)")
            let headEnd = try #require(text.range(of: "\r\n\r\n")).upperBound.utf16Offset(in: text)
            let payload = Array(bytes[headEnd...])
            let json = gzipped ? try Compression.inflate(payload, maxSize: 1 << 20, format: .gzip) : payload
            #expect(try Workout_V1_DescribeCatalogResponse(jsonUTF8Bytes: json) == description)
            if gzipped { #expect(payload.count * 3 < json.count) }
        }
        // A short answer is never compressed.
        var exchange = Exchange()
        exchange.harness.send(bytes: Self.post("/workout.v1.MetaService/Health", Array("{}".utf8), headers: ["Accept-Encoding: gzip"]))
        exchange.harness.finish(try #require(exchange.runs.first).callID, .success([]))
        #expect(!exchange.read().contains("Content-Encoding"))
    }

    @Test("A stream takes a gzip envelope under Connect-Content-Encoding, and answers gzip envelopes under Connect-Accept-Encoding")
    func gzipStreams() throws {
        var exchange = Exchange()
        let message = Self.gzip(#"{"sinceRevision": "4"}"#)
        var body: [UInt8] = [1]
        withUnsafeBytes(of: UInt32(message.count).bigEndian) { body += $0 }
        body += message
        exchange.harness.send(bytes: Self.post(
            MethodCatalog.watch.descriptor.httpPath, body,
            headers: ["Connect-Content-Encoding: gzip", "Connect-Accept-Encoding: gzip", HTTPMachineTests.bearer],
            type: "application/connect+json"))
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let call = try #require(exchange.runs.first)
        #expect(try Workout_V1_WatchRequest(serializedBytes: call.body).sinceRevision == 4)
        #expect(exchange.read().contains("Connect-Content-Encoding: gzip\r\n"))
        var event = Workout_V1_WatchEvent()
        event.revision = 9
        event.changes = (0..<40).map { index in
            var change = Workout_V1_Change()
            change.revision = UInt64(index + 1)
            change.workout.workoutType = "running"
            change.workout.notes = "an easy run by the river, number \(index)"
            return change
        }
        exchange.harness.streamMessage(call.callID, try event.serializedBytes())
        let chunk = exchange.harness.machine.output.withUnreadBytes { Array($0) }
        _ = exchange.read()
        // The chunk: its size in hex, CRLF, the envelope (flag 1: compressed), CRLF.
        let sizeEnd = try #require(chunk.firstIndex(of: 0x0D))
        let envelope = Array(chunk[(sizeEnd + 2)..<(chunk.count - 2)])
        #expect(envelope[0] == 1)
        let json = try Compression.inflate(Array(envelope[5...]), maxSize: 1 << 20, format: .gzip)
        #expect(try Workout_V1_WatchEvent(jsonUTF8Bytes: json) == event)
        // A compressed envelope without the header that declares it is refused.
        var plain = Exchange()
        plain.harness.send(bytes: Self.post(MethodCatalog.watch.descriptor.httpPath, body, headers: [HTTPMachineTests.bearer], type: "application/connect+json"))
        plain.authenticated(.success(Array(repeating: 1, count: 16)))
        #expect(plain.runs.isEmpty)
        #expect(plain.read().contains("Connect-Content-Encoding: gzip"))
    }

    @Test("A file has a strong ETag: If-None-Match answers 304 without a body; gzip when the browser takes it")
    func fileRevalidation() throws {
        let page = "<!doctype html><title>W</title>" + String(repeating: "<p>the household</p>", count: 200)
        let asset = StaticAsset(contentType: "text/html; charset=utf-8", body: Array(page.utf8))
        let routes = HTTPRoutes(methods: ServerMachineHarness.methods, assets: ["/": asset])
        var harness = ServerMachineHarness(handshake: false)
        harness.machine = ServerConnectionMachine(limits: .init(), methods: ServerMachineHarness.methods, httpRoutes: routes, now: .zero)
        harness.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip, br\r\n\r\n".utf8))
        let first = harness.machine.output.withUnreadBytes { Array($0) }
        _ = harness.machine.wrote(first.count, now: .zero)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains("ETag: W/\(asset.entityTag)\r\n") && text.contains("Content-Encoding: gzip\r\n"))
        #expect(asset.entityTag.count == 34 && asset.entityTag.hasPrefix("\""))
        let headEnd = try #require(text.range(of: "\r\n\r\n")).upperBound.utf16Offset(in: text)
        #expect(try Compression.inflate(Array(first[headEnd...]), maxSize: 1 << 20, format: .gzip) == asset.body)

        for tags in [asset.entityTag, "\"other\", W/\(asset.entityTag)", "*"] {
            harness.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\nIf-None-Match: \(tags)\r\n\r\n".utf8))
            let again = harness.machine.output.withUnreadBytes { String(decoding: $0, as: UTF8.self) }
            _ = harness.machine.wrote(again.utf8.count, now: .zero)
            #expect(again.hasPrefix("HTTP/1.1 304 Not Modified\r\n"), "\(tags)")
            #expect(again.hasSuffix("\r\n\r\n") && !again.contains("Content-Length") && !again.contains("<title>"))
        }
        harness.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"stale\"\r\n\r\n".utf8))
        let changed = harness.machine.output.withUnreadBytes { String(decoding: $0, as: UTF8.self) }
        #expect(changed.hasPrefix("HTTP/1.1 200 OK") && changed.contains("<title>W</title>") && !changed.contains("Content-Encoding"))
    }

    static func get(_ path: String, _ query: String, headers: [String] = []) -> [UInt8] {
        var text = "GET \(path)?\(query) HTTP/1.1\r\nHost: h\r\n"
        for header in headers { text += header + "\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// The head's fields and the body of the one answer in `text`.
    static func split(_ text: String) -> (head: String, body: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        return (parts[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    @Test("Connect's GET form runs a method without side effects, answers with an ETag, and If-None-Match of an unchanged answer is 304")
    func getWithEntityTags() throws {
        var exchange = Exchange()
        let path = MethodCatalog.mealsOfDay.descriptor.httpPath
        exchange.harness.send(bytes: Self.get(path, "connect=v1&encoding=json&message=%7B%22day%22%3A%7B%22year%22%3A2026%2C%22month%22%3A12%2C%22day%22%3A8%7D%7D", headers: [HTTPMachineTests.bearer]))
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let call = try #require(exchange.runs.first)
        #expect(try Workout_V1_MealsOfDayRequest(serializedBytes: call.body).day.day == 8)
        var day = Workout_V1_MealsOfDayResponse()
        day.totals.calories = 640
        exchange.harness.finish(call.callID, .success(try day.serializedBytes()))
        let (head, body) = Self.split(exchange.read())
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.contains("Cache-Control: private, no-cache"))
        let tag = try #require(head.components(separatedBy: "\r\n").first { $0.hasPrefix("ETag: ") }).dropFirst(6)
        #expect(tag.count == 34 && body.contains("640"))

        // Unchanged: 304 without a body. Changed: 200 with another tag.
        for (calories, status) in [(640.0, "304"), (700.0, "200")] {
            exchange.harness.send(bytes: Self.get(path, "encoding=json&message=%7B%7D", headers: [HTTPMachineTests.bearer, "If-None-Match: \(tag)"]))
            let again = try #require(exchange.runs.first)
            day.totals.calories = calories
            exchange.harness.finish(again.callID, .success(try day.serializedBytes()))
            let (head, body) = Self.split(exchange.read())
            #expect(head.hasPrefix("HTTP/1.1 \(status) "), "\(calories)")
            #expect(head.contains("ETag: \(tag)") == (status == "304"))
            #expect(body.isEmpty == (status == "304"))
        }

        // Another member with the same answer gets another tag: one member's tag never
        // matches another's.
        var other = Exchange()
        other.harness.send(bytes: Self.get(path, "encoding=json&message=%7B%7D", headers: [HTTPMachineTests.bearer, "If-None-Match: \(tag)"]))
        other.authenticated(.success(Array(repeating: 2, count: 16)))
        day.totals.calories = 640
        other.harness.finish(try #require(other.runs.first).callID, .success(try day.serializedBytes()))
        let otherHead = Self.split(other.read()).head
        #expect(otherHead.hasPrefix("HTTP/1.1 200 OK") && !otherHead.contains("ETag: \(tag)"))
    }

    @Test("A GET of the day's meals asks the driver to revalidate by the member's revision; its word makes the 304 or the tag")
    func revisionRevalidation() throws {
        var exchange = Exchange()
        let path = MethodCatalog.mealsOfDay.descriptor.httpPath
        exchange.harness.send(bytes: Self.get(path, "encoding=json&message=%7B%7D", headers: [HTTPMachineTests.bearer, "If-None-Match: \"abc\""]))
        exchange.authenticated(.success(Array(repeating: 1, count: 16)))
        let call = try #require(exchange.runs.first)
        let revalidation = try #require(call.revalidation)
        #expect(revalidation.ifNoneMatch == "\"abc\"")
        #expect(revalidation.seed == RevisionTag.seed(member: Array(repeating: 1, count: 16), method: MethodCatalog.mealsOfDay.number, json: true, content: call.body))
        // Unchanged: 304 with the driver's tag, without an answer.
        exchange.harness.record(exchange.harness.machine.callFinished(
            call.callID, .success([]), revalidated: Revalidated(entityTag: "\"abc\"", unchanged: true), now: exchange.harness.now))
        let (head, body) = Self.split(exchange.read())
        #expect(head.hasPrefix("HTTP/1.1 304 Not Modified") && head.contains("ETag: \"abc\"") && body.isEmpty)
        // Changed: the answer with the driver's tag.
        exchange.harness.send(bytes: Self.get(path, "encoding=json&message=%7B%7D", headers: [HTTPMachineTests.bearer]))
        let again = try #require(exchange.runs.first)
        exchange.harness.record(exchange.harness.machine.callFinished(
            again.callID, .success(try Workout_V1_MealsOfDayResponse().serializedBytes()), revalidated: Revalidated(entityTag: "\"def\"", unchanged: false),
            now: exchange.harness.now))
        #expect(Self.split(exchange.read()).head.contains("ETag: \"def\""))
        // A POST, or a GET of a read that does not follow the revision, asks nothing.
        exchange.harness.send(bytes: Self.post(path, Array("{}".utf8), headers: [HTTPMachineTests.bearer]))
        #expect(try #require(exchange.runs.first).revalidation == nil)
        exchange.harness.finish(try #require(exchange.runs.first).callID)
        _ = exchange.read()
        exchange.harness.send(bytes: Self.get(MethodCatalog.getProfile.descriptor.httpPath, "encoding=json&message=%7B%7D", headers: [HTTPMachineTests.bearer]))
        #expect(try #require(exchange.runs.first).revalidation == nil)
    }

    @Test("GET with base64=1 and encoding=proto; a gzip message under compression=gzip")
    func getForms() throws {
        var request = Workout_V1_MealsOfDayRequest()
        request.day.year = 2026
        request.timeZone = "Europe/Berlin"
        let bytes: [UInt8] = try request.serializedBytes()
        let base64url = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let gzipped = Data(Compression.deflate(bytes, format: .gzip)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        for query in ["encoding=proto&base64=1&message=\(base64url)", "encoding=proto&base64=1&compression=gzip&message=\(gzipped)"] {
            var exchange = Exchange()
            exchange.harness.send(bytes: Self.get(MethodCatalog.mealsOfDay.descriptor.httpPath, query, headers: [HTTPMachineTests.bearer]))
            exchange.authenticated(.success(Array(repeating: 1, count: 16)))
            let call = try #require(exchange.runs.first, "\(query)")
            #expect(try Workout_V1_MealsOfDayRequest(serializedBytes: call.body) == request)
        }
    }

    @Test("GET is refused for a method with side effects, and for a query that is not Connect's", arguments: [
        ("/workout.v1.LoggingService/LogWeight", "encoding=json&message=%7B%7D", "405"),
        ("/workout.v1.QueriesService/MealsOfDay", "message=%7B%7D", "400"),
        ("/workout.v1.QueriesService/MealsOfDay", "encoding=json", "400"),
        ("/workout.v1.QueriesService/MealsOfDay", "encoding=xml&message=%7B%7D", "415"),
        ("/workout.v1.QueriesService/MealsOfDay", "encoding=json&base64=1&message=%%%", "400"),
        ("/workout.v1.QueriesService/MealsOfDay", "encoding=json&base64=1&message=not*base64", "400"),
        ("/workout.v1.QueriesService/MealsOfDay", "encoding=json&encoding=proto&message=%7B%7D", "400"),
        ("/workout.v1.QueriesService/MealsOfDay", "connect=v2&encoding=json&message=%7B%7D", "400"),
        ("/workout.v1.QueriesService/MealsOfDay", "encoding=json&compression=br&message=%7B%7D", "415"),
    ])
    func getRefusals(path: String, query: String, status: String) {
        var exchange = Exchange()
        exchange.harness.send(bytes: Self.get(path, query))
        let answer = exchange.read()
        #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(query): \(answer.prefix(300))")
        #expect(exchange.runs.isEmpty)
    }
}
