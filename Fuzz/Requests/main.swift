// The request path's fuzz target. See Fuzz/README.md.
//
// Each input is one call: its first byte picks a catalog method, its second who calls (no
// session, a member, the household's owner) and the client's frame size (64 KiB or 4 MiB), the rest is the request body as it would
// arrive, inflated, after the connection's checks. The call goes through the real `Router`
// to a real `HouseholdStore` in a temporary directory, the way a connection runs it. The
// invariants: no crash, no hang, and bad input is the caller's error: a call either succeeds
// or fails with a status other than OK and INTERNAL, and a message. Streams (Watch, Export)
// are started as the connection starts them: the request decoded, the first page read.
//
// Built with `-sanitize=fuzzer -DFUZZING`, the top-level code hands control to libFuzzer
// through `LLVMFuzzerRunDriver` (as Fuzz/FrameDecoder does); built normally, it replays the
// files or directories named as arguments, so CI replays the committed corpus.

import Dispatch
import Foundation
import SwiftProtobuf
import Synchronization
import WorkoutCore
import WorkoutProtocol
import WorkoutServer

/// The household every input is run against, made once per process.
final class Household: Sendable {
    let store: HouseholdStore
    let router: Router
    let directory: String
    private let callers = Mutex<[Int: Caller]>([:])
    private static let password = "fuzzing household password"

    init() throws {
        directory = NSTemporaryDirectory() + "workout-fuzz-requests-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        store = try HouseholdStore(directory: directory, configuration: configuration)
        _ = try store.createOwner(email: "owner@example.com", password: Self.password, firstName: "Owner", timeZone: "Europe/Berlin")
        let code = try store.createInviteLocally(role: .member).code
        var registration = Workout_V1_RegisterRequest()
        registration.inviteCode = code
        registration.password = Self.password
        registration.profile.email = "member@example.com"
        registration.profile.firstName = "Member"
        registration.profile.timeZone = "America/New_York"
        let member = try blocking { [store, registration] in try await store.register(registration, source: "fuzz", agent: "fuzz") }
        callers.withLock { $0[1] = member.caller }
        let store = store
        router = Router(household: store, health: { Workout_V1_HealthResponse() }, stats: { Workout_V1_StatsResponse() })
    }

    /// The caller of role `index` (0: none, 1: the member, 2: the owner), signed in again
    /// when an earlier input ended its session (Logout).
    func caller(_ index: Int) -> Caller? {
        guard index != 0 else { return nil }
        if let caller = callers.withLock({ $0[index] }), (try? store.listSessions(caller)) != nil {
            return caller
        }
        var login = Workout_V1_LoginRequest()
        login.email = index == 1 ? "member@example.com" : "owner@example.com"
        login.password = Self.password
        guard let signedIn = try? blocking({ [store, login] in try await store.login(login, source: "fuzz-\(UUID())", agent: "fuzz") }) else {
            return nil  // the account was deleted or its password changed: the call goes without a session
        }
        callers.withLock { $0[index] = signedIn.caller }
        return signedIn.caller
    }
}

/// Runs an async body to completion from synchronous code.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<T, any Error>?>(nil)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

nonisolated(unsafe) var household: Household?

/// One input: a call through the router; checks the invariants.
func runCall(_ input: UnsafeRawBufferPointer) {
    guard input.count >= 2 else { return }
    if household == nil {
        do { household = try Household() } catch { fatalError("the household could not be made: \(error)") }
    }
    guard let household else { return }
    let methods = MethodCatalog.all
    let method = methods[Int(input[0]) % methods.count]
    let body = Array(input[2...])
    let caller = household.caller(Int(input[1]) % 3)
    guard let handler = household.router.route(method.number)?.handler else {
        preconditionFailure("the router has no handler for catalog method \(method.name)")
    }
    // The client's frame size, the smallest a HELLO may announce or the default: pages end there.
    let maxResponseBytes = (input[1] / 3) % 2 == 0 ? HandshakeLimits.allowedFrameSizes.lowerBound : HandshakeLimits.defaultMaxFrameSize
    let context = RequestContext(caller: caller, source: "fuzz", agent: "fuzz", maxResponseBytes: maxResponseBytes)
    let result: Result<HandlerOutcome, any Error>
    switch handler {
    case .inline(let run):
        result = Result { try run(context, body) }
    case .write(let run), .slow(let run):
        result = Result { try blocking { try await run(context, body) } }
    case .stream(let kind):
        // As the connection starts them: decode the request, then the first page or chunk.
        result = Result {
            guard let caller else { throw RPCError(code: .unauthenticated, message: "this method needs a session") }
            switch kind {
            case .watch:
                let watch = try decodeRequest(Workout_V1_WatchRequest.self, body)
                var request = Workout_V1_ChangesRequest()
                request.sinceRevision = watch.sinceRevision
                request.pageSize = 100
                _ = try household.store.changes(caller, request)
            case .export:
                _ = try decodeRequest(Workout_V1_ExportRequest.self, body)
                _ = try household.store.beginExport(caller)
            }
            return .reply([])
        }
    }
    switch result {
    case .success(let outcome):
        switch outcome {
        case .reply, .bind, .unbind:
            break  // a typed response, serialized by the router
        }
    case .failure(let error):
        let failure = CallFailure(error)
        precondition(failure.status != .ok, "\(method.name) failed with status OK")
        precondition(failure.status != .internal, "\(method.name) answered INTERNAL to a request (bad input must be the caller's error): \(error)")
        precondition(!failure.details.message.isEmpty, "\(method.name) failed without a message")
    }
}

/// A stream's request, decoded as the connection does: INVALID_ARGUMENT when it does not decode.
func decodeRequest<Request: SwiftProtobuf.Message>(_ type: Request.Type, _ bytes: [UInt8]) throws -> Request {
    do {
        return try Request(serializedBytes: bytes)
    } catch {
        throw RPCError(code: .invalidArgument, message: "the request does not decode as \(Request.protoMessageName)")
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    runCall(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
exit(status)
#else
var replayed = 0
for path in CommandLine.arguments.dropFirst() {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        print("no such file: \(path)")
        exit(2)
    }
    let files = isDirectory.boolValue
        ? (try FileManager.default.contentsOfDirectory(atPath: path)).sorted().map { path + "/" + $0 }
        : [path]
    for file in files {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes.withUnsafeBytes { runCall($0) }
        replayed += 1
    }
}
household?.store.close()
if let directory = household?.directory { try? FileManager.default.removeItem(atPath: directory) }
guard replayed > 0 else {
    print("replayed nothing: the corpus is empty or missing")
    exit(1)
}
print("replayed \(replayed) inputs: no crash")
#endif
