import Foundation
import ServerTestSupport
import SwiftProtobuf
import TestSupport
import Testing
import WorkoutProtocol

/// The face of the server a test speaks to.
enum Face: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// The binary protocol.
    case binary
    /// HTTP/1.1 with Connect's JSON bodies.
    case http

    var testDescription: String { rawValue }
}

/// A client of either face with the same calls, so one test covers both: a binary connection
/// after its handshake, or an HTTP client keeping its bearer token.
final class FaceClient: @unchecked Sendable {
    // Safe because: a test uses one client from one thread at a time.
    private let binary: TestConnection?
    private let http: HTTPTestClient?

    /// A connection to `port` speaking `face`, ready for calls.
    init(_ face: Face, port: Int) throws {
        switch face {
        case .binary:
            let connection = try TestConnection(port: port)
            try connection.handshake()
            binary = connection
            http = nil
        case .http:
            binary = nil
            http = try HTTPTestClient(port: port)
        }
    }

    /// The client logged in as the owner.
    static func owner(_ face: Face, port: Int) throws -> FaceClient {
        try login(face, port: port, email: ownerEmail, password: ownerPassword)
    }

    /// A client logged in as `email`.
    static func login(_ face: Face, port: Int, email: String, password: String) throws -> FaceClient {
        let client = try FaceClient(face, port: port)
        var login = Workout_V1_LoginRequest()
        login.email = email
        login.password = password
        _ = try client.call(MethodCatalog.login, login)
        return client
    }

    /// A new member joins: `admin` makes an invite, a new client registers with it and keeps
    /// the session.
    static func member(_ face: Face, port: Int, invitedBy admin: FaceClient, email: String, password: String = "member password 1") throws -> (FaceClient, Workout_V1_RegisterResponse) {
        var invite = Workout_V1_CreateInviteRequest()
        invite.role = .member
        let code = try admin.call(MethodCatalog.createInvite, invite).code
        let client = try FaceClient(face, port: port)
        let registered = try client.call(MethodCatalog.register, registerRequest(code: code, email: email, password: password))
        return (client, registered)
    }

    /// Starts a Watch, reads its first event, and ends the call (CANCEL on the binary face; on
    /// HTTP, whose calls cannot be cancelled but by closing, a deadline of 300 ms); returns the
    /// first event and the status the call ended with.
    func watchFirstEventThenEnd() throws -> (Workout_V1_WatchEvent, StatusCode) {
        if let binary {
            let watch = try binary.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
            let first = try binary.readFrame { $0.callID == watch }
            let event = try Workout_V1_WatchEvent(serializedBytes: first.decodedBody(maxDecompressedSize: 1 << 24))
            try binary.cancel(watch)
            return (event, try binary.finalFrame(of: watch).status)
        }
        let http = http!
        let stream = try HTTPStream(http, MethodCatalog.watch, Workout_V1_WatchRequest(), headers: [("Connect-Timeout-Ms", "300")])
        let event = try stream.next()!
        while try stream.next() != nil {}
        return (event, stream.status)
    }

    /// Runs an Export to its end; the status it ended with.
    func exportStatus() throws -> StatusCode {
        if let binary {
            let export = try binary.sendRequest(MethodCatalog.export, Workout_V1_ExportRequest())
            return try binary.finalFrame(of: export).status
        }
        let stream = try HTTPStream(http!, MethodCatalog.export, Workout_V1_ExportRequest())
        while try stream.next() != nil {}
        return stream.status
    }

    /// Resumes a session (or a device token) by its token: bound to the connection on the
    /// binary face, kept as the bearer token on HTTP.
    static func resume(_ face: Face, port: Int, token: Data) throws -> FaceClient {
        let client = try FaceClient(face, port: port)
        var resume = Workout_V1_ResumeRequest()
        resume.sessionToken = token
        if let http = client.http {
            http.token = token
        } else {
            _ = try client.call(MethodCatalog.resume, resume)
        }
        return client
    }

    /// The status a streaming call ends with, given `deadlineMilliseconds` to run.
    func streamStatus<Request, Message>(_ method: RPCMethod<Request, Message>, _ request: Request, deadlineMilliseconds: UInt32) throws -> StatusCode {
        if let binary {
            let id = try binary.sendRequest(method, request, deadline: deadlineMilliseconds)
            return try binary.finalFrame(of: id).status
        }
        let stream = try HTTPStream(http!, method, request, headers: [("Connect-Timeout-Ms", "\(deadlineMilliseconds)")])
        while try stream.next() != nil {}
        return stream.status
    }

    /// Calls a unary method; throws its failure as a ``TestConnection/Failure``.
    func call<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request) throws -> Response {
        if let binary { return try binary.call(method, request) }
        return try http!.call(method, request)
    }

    /// The status a call ends with (OK or the failure's).
    func status<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request) throws -> (StatusCode, Workout_V1_RpcStatus) {
        if let binary { return try binary.status(method, request) }
        return try http!.status(method, request)
    }
}
