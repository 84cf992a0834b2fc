import Foundation
import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// gzip both ways on the HTTP face, as Connect specifies: request bodies and stream messages
/// taken in gzip (bounded like any body), answers in gzip when the client asks; the
/// dashboard's files with a strong ETag, 304 and gzip.
@Suite("The connection machine's HTTP face: compression and revalidation")
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
        for (accept, gzipped) in [("Accept-Encoding: gzip, deflate, br", true), ("Accept-Encoding: gzip;q=0, identity", false), ("", false)] {
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
        #expect(text.contains("ETag: \(asset.entityTag)\r\n") && text.contains("Content-Encoding: gzip\r\n"))
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
}
