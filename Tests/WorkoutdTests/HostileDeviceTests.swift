import Foundation
import Synchronization
import ProcessTestSupport
import Testing
import TestSupport
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A device on the home network that connects and then holds (memory in frames it never
/// finishes, connection slots it never uses, a frame a byte at a time) against the real
/// `workoutd` with its default settings, while a well-behaved member on another address keeps
/// making calls that must all succeed. Other hosts are other 127.x addresses; every loop is
/// bounded.
@Suite("workoutd against a hostile device", .serialized)
struct HostileDeviceTests {
    /// The owner `createOwner` made, signed in from 127.0.0.1, and its session token.
    struct Member {
        let connection: TestConnection
        let token: [UInt8]

        init(port: Int) throws {
            connection = try TestConnection(port: port, timeout: 20, source: "127.0.0.1")
            try connection.handshake()
            var login = Workout_V1_LoginRequest()
            login.email = "ada@example.com"
            login.password = "correct horse battery"
            token = Array(try connection.call(MethodCatalog.login, login).sessionToken)
        }

        /// A call that must succeed whatever the hostile device does.
        func checkServed(_ comment: Comment) throws {
            #expect(try connection.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == "ada@example.com", comment)
        }

        func stats() throws -> Workout_V1_StatsResponse {
            try connection.call(MethodCatalog.stats, Workout_V1_StatsRequest())
        }
    }

    /// Raises this process's open-file limit (the servers it starts inherit it), so 1,000 and
    /// more sockets on each side fit.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_max, 8_192)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The server's anonymous resident memory, from /proc.
    static func anonymousMemory(of pid: pid_t) -> UInt64 {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
            return (UInt64(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) ?? 0) * 1_024
        }
        return 0
    }

    /// A REQUEST header announcing `length` payload bytes, then `sent` of them.
    static func partialRequest(callID: UInt32, announcing length: Int, sending sent: Int) -> [UInt8] {
        var header: [UInt8] = []
        FrameHeader(length: UInt32(length), type: .request, callID: callID, code: MethodCatalog.getProfile.number).encode(into: &header)
        return header + [UInt8](repeating: 0x41, count: sent)
    }

    static func withServer(_ body: (ServeProcess, Member) throws -> Void) throws {
        Self.raiseDescriptorLimit()
        try withTemporaryDirectory { path in
            try createOwner(path + "/data")
            let server = try ServeProcess(dataDirectory: path + "/data")
            defer { server.stop() }
            try body(server, try Member(port: server.port))
        }
    }

    @Test("Frames that never finish hold little memory: before a session 64 KiB at most, after it a shared budget")
    func incompleteFrames() async throws {
        // On a thread of its own: a long blocking test must not hold the cooperative pool.
        try await blocking {
            try Self.withServer { server, member in
                let before = Self.anonymousMemory(of: server.pid)
                // 96 devices without a session announce 4 MiB: refused at the header.
                for index in 0..<96 {
                    let hostile = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.2")
                    try hostile.handshake()
                    // The header alone: the server answers before a payload byte is sent.
                    try hostile.write(Self.partialRequest(callID: 1, announcing: 4 << 20, sending: 0))
                    let frames = (try? hostile.readUntilClosed()) ?? []
                    let goAway = frames.last { $0.type == .goAway }
                    #expect(goAway?.status == .resourceExhausted, "device \(index)")
                    if index % 16 == 0 { try member.checkServed("while devices without a session announce 4 MiB") }
                }
                // 48 signed-in devices each send all but 1 KiB of a 4 MiB frame and hold it.
                var holders: [TestConnection] = []
                for index in 0..<48 {
                    let hostile = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.3")
                    try hostile.handshake()
                    var resume = Workout_V1_ResumeRequest()
                    resume.sessionToken = Data(member.token)
                    _ = try hostile.call(MethodCatalog.resume, resume)
                    // A device the server sheds meanwhile fails this write: that is the point.
                    try? hostile.write(Self.partialRequest(callID: 2, announcing: 4 << 20, sending: (4 << 20) - 1_024))
                    holders.append(hostile)
                    if index % 8 == 0 { try member.checkServed("while signed-in devices hold large frames") }
                }
                let stats = try member.stats()
                let held = Self.anonymousMemory(of: server.pid)
                #expect(stats.shedConnections > 0, "the devices holding the most were shed")
                #expect(stats.incompleteFrameBytes <= 20 << 20, "the 16 MiB budget and one read")
                #expect(held < before + (64 << 20), "anonymous memory \(held >> 20) MiB, \(before >> 20) MiB before")
                try member.checkServed("after")
                withExtendedLifetime(holders) {}
            }
        }
    }

    @Test("A full server sheds an idle connection without a session so that a member's new connection is served")
    func slots() async throws {
        // On a thread of its own: a long blocking test must not hold the cooperative pool.
        try await blocking {
            try Self.withServer { server, member in
                // 1,021 connections from 32 addresses (within the per-address limit) finish the
                // handshake and say nothing; with the member's, 1,022 of the 1,024 slots.
                var idle: [TestConnection] = []
                for index in 0..<1_021 {
                    let connection = try TestConnection(port: server.port, timeout: 10, source: "127.0.1.\(index % 32 + 1)")
                    try connection.handshake()
                    idle.append(connection)
                }
                #expect(try member.stats().openConnections >= 1_022)
                // 33 fresh connections of the member, kept open: connect, Auth.Resume, one call.
                var fresh: [TestConnection] = []
                for attempt in 0..<33 {
                    let connection = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.1")
                    try connection.handshake()
                    var resume = Workout_V1_ResumeRequest()
                    resume.sessionToken = Data(member.token)
                    _ = try connection.call(MethodCatalog.resume, resume)
                    #expect(try connection.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == "ada@example.com", "attempt \(attempt)")
                    fresh.append(connection)
                }
                let stats = try member.stats()
                #expect(stats.shedConnections >= 31, "idle connections without a session made room")
                #expect(stats.rejectedConnections == 0)
                withExtendedLifetime((idle, fresh)) {}
            }
        }
    }

    @Test("A device that sends a frame a byte a second is dropped at the frame time limit")
    func slowSender() async throws {
        // On a thread of its own: a long blocking test must not hold the cooperative pool.
        try await blocking {
            Self.raiseDescriptorLimit()
            try withTemporaryDirectory { path in
                try createOwner(path + "/data")
                try Data(#"{"limits": {"frame_timeout_seconds": 2}}"#.utf8).write(to: URL(fileURLWithPath: path + "/workoutd.json"))
                let server = try ServeProcess(dataDirectory: path + "/data", arguments: ["--config", path + "/workoutd.json"])
                defer { server.stop() }
                let member = try Member(port: server.port)
                let slow = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.4")
                try slow.handshake()
                // 40 bytes of a 80-byte frame, one every 250 ms: 10 s if nobody stops it.
                let frame = Self.partialRequest(callID: 1, announcing: 64, sending: 64)
                var refused = false
                for byte in frame.prefix(40) {
                    do { try slow.write([byte]) } catch {
                        refused = true  // the server closed the connection
                        break
                    }
                    usleep(250_000)
                }
                #expect(refused, "the server closed the connection before the 40 bytes were sent")
                try member.checkServed("after the slow sender")
            }
        }
    }
}

/// The disk holding the store fills up under a running `workoutd`, on a small tmpfs of its own.
@Suite("workoutd on a full disk", .serialized)
struct FullDiskTests {
    static func workout(_ index: Int) -> Workout_V1_LogWorkoutRequest {
        var request = Workout_V1_LogWorkoutRequest()
        request.workout.id = Data((0..<16).map { UInt8(truncatingIfNeeded: $0 == 0 ? 1 : index >> (($0 % 4) * 8)) })
        request.workout.workoutType = "running"
        request.workout.durationSeconds = 1_800
        request.workout.caloriesBurned = 300
        request.workout.performedAtMs = Int64(Date().timeIntervalSince1970 * 1000) - Int64(index) * 60_000
        request.workout.notes = String(repeating: "n", count: 900)
        return request
    }

    /// Mounts a tmpfs of `megabytes` at `path`; `false` (and a printed reason) where this
    /// machine does not allow it.
    static func mountSmallDisk(at path: String, megabytes: Int) -> Bool {
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "workout-test-full-disk", path]
        mount.standardOutput = FileHandle.nullDevice
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else {
            print("skipped: /bin/mount cannot run here, so there is no small disk to fill")
            return false
        }
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            print("skipped: mounting a tmpfs failed (not root, or no CAP_SYS_ADMIN), so there is no small disk to fill")
            return false
        }
        return true
    }

    static func unmount(_ path: String) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = ["-l", path]
        try? umount.run()
        umount.waitUntilExit()
    }

    @Test("Writes answer RESOURCE_EXHAUSTED saying storage is full; Health and Stats show it; reads and logins go on; nothing acknowledged is lost; writes recover")
    func fullDisk() async throws {
        // On a thread of its own: a long blocking test must not hold the cooperative pool.
        try await blocking {
            HostileDeviceTests.raiseDescriptorLimit()
            try withTemporaryDirectory { path in
                let disk = path + "/disk"
                try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
                guard Self.mountSmallDisk(at: disk, megabytes: 24) else { return }
                defer { Self.unmount(disk) }
                try createOwner(disk + "/data")
                let server = try ServeProcess(dataDirectory: disk + "/data")
                defer { server.stop() }
                let member = try HostileDeviceTests.Member(port: server.port)
                // Fill what is left of the disk, but for the store's own pages.
                let filler = disk + "/filler"
                _ = FileManager.default.createFile(atPath: filler, contents: nil)
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
                let block = Data(count: 256 << 10)
                var filled = 0
                while filled < 64 << 20, (try? handle.write(contentsOf: block)) != nil { filled += block.count }
                try? handle.close()

                var acknowledged = 0
                var refusal: (StatusCode, Workout_V1_RpcStatus)?
                for index in 0..<20_000 {
                    let (status, details) = try member.connection.status(MethodCatalog.logWorkout, Self.workout(index))
                    if status == .ok {
                        acknowledged += 1
                    } else {
                        refusal = (status, details)
                        break
                    }
                }
                #expect(refusal?.0 == .resourceExhausted, "\(String(describing: refusal))")
                #expect(refusal?.1.message.contains("storage is full") == true, "\(String(describing: refusal))")
                let health = try member.connection.call(MethodCatalog.health, Workout_V1_HealthRequest())
                #expect(health.storageFull)
                #expect(health.storageFullSinceMs > 0)
                let stats = try member.stats()
                #expect(stats.storageFullSinceMs > 0)
                #expect(stats.writesRefusedForSpace >= 1)
                // Reads go on, and so does a device reopening its session (Auth.Resume), even though
                // its expiry cannot slide; a new login needs room for its session: it either fits in
                // pages the store has free, or is told plainly that storage is full.
                try member.checkServed("reads on a full disk")
                let reopened = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.1")
                try reopened.handshake()
                var resume = Workout_V1_ResumeRequest()
                resume.sessionToken = Data(member.token)
                #expect(try reopened.call(MethodCatalog.resume, resume).profile.email == "ada@example.com")
                var login = Workout_V1_LoginRequest()
                login.email = "ada@example.com"
                login.password = "correct horse battery"
                let signingIn = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.1")
                try signingIn.handshake()
                let (loginStatus, loginDetails) = try signingIn.status(MethodCatalog.login, login)
                #expect(loginStatus == .ok || (loginStatus == .resourceExhausted && loginDetails.message.contains("storage is full")), "\(loginStatus): \(loginDetails.message)")

                // Space returns: writes succeed by themselves, and every acknowledged write is there.
                try FileManager.default.removeItem(atPath: filler)
                let (status, details) = try member.connection.status(MethodCatalog.logWorkout, Self.workout(acknowledged))
                #expect(status == .ok, "\(details.message)")
                #expect(try member.connection.call(MethodCatalog.health, Workout_V1_HealthRequest()).storageFull == false)
                var stored = 0
                var request = Workout_V1_WorkoutHistoryRequest()
                request.pageSize = 100
                for _ in 0..<1_000 {
                    let page = try member.connection.call(MethodCatalog.workoutHistory, request)
                    stored += page.workouts.count
                    if page.nextPageToken.isEmpty { break }
                    request.pageToken = page.nextPageToken
                }
                #expect(stored == acknowledged + 1)
            }
        }
    }
}

/// How fast the disk fills while members write: a block of `block` bytes every `pause`.
struct FillSpeed: Sendable, CustomStringConvertible {
    var block: Int
    var pause: Duration
    var description: String { "\(block >> 10) KiB every \(pause)" }
}

extension FullDiskTests {
    /// What the writers saw.
    struct Tally {
        var acknowledged = 0
        /// One past the highest workout index written.
        var nextIndex = 0
        var refusals: [StatusCode: Int] = [:]
        var otherMessages: [String] = []
    }

    /// From a flood to a trickle: a full disk arrives in the middle of a commit's write at
    /// different moments (LMDB reports a write the disk could not take whole as EIO, not ENOSPC).
    static let fillSpeeds = [
        FillSpeed(block: 1 << 20, pause: .milliseconds(5)),
        FillSpeed(block: 256 << 10, pause: .milliseconds(25)),
        FillSpeed(block: 64 << 10, pause: .milliseconds(20)),
    ]

    @Test("While the disk fills, every refused write answers RESOURCE_EXHAUSTED saying storage is full, and nothing acknowledged is lost",
          arguments: fillSpeeds)
    func fillingDisk(_ speed: FillSpeed) async throws {
        // On threads of their own: long blocking work must not hold the cooperative pool.
        try await blocking {
            HostileDeviceTests.raiseDescriptorLimit()
            try withTemporaryDirectory { path in
                let disk = path + "/disk"
                try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
                guard Self.mountSmallDisk(at: disk, megabytes: 24) else { return }
                defer { Self.unmount(disk) }
                try createOwner(disk + "/data")
                let server = try ServeProcess(dataDirectory: disk + "/data")
                defer { server.stop() }
                let member = try HostileDeviceTests.Member(port: server.port)
                let writers = 4
                let tally = Mutex(Tally())
                let diskFull = Atomic<Bool>(false)
                let done = DispatchGroup()
                let filler = disk + "/filler"
                _ = FileManager.default.createFile(atPath: filler, contents: nil)
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    guard let handle = try? FileHandle(forWritingTo: URL(fileURLWithPath: filler)) else { return }
                    let block = Data(count: speed.block)
                    var filled = 0
                    while filled < 64 << 20, (try? handle.write(contentsOf: block)) != nil {
                        filled += block.count
                        Thread.sleep(forTimeInterval: Double(speed.pause.components.attoseconds) / 1e18)
                    }
                    try? handle.close()
                    diskFull.store(true, ordering: .relaxed)
                }
                // Each writer on its own connection, resuming the member's session; each keeps
                // writing until the disk is full and it has been refused 10 times.
                for writer in 0..<writers {
                    done.enter()
                    Thread.detachNewThread {
                        defer { done.leave() }
                        do {
                            let connection = try TestConnection(port: server.port, timeout: 20, source: "127.0.0.1")
                            try connection.handshake()
                            var resume = Workout_V1_ResumeRequest()
                            resume.sessionToken = Data(member.token)
                            _ = try connection.call(MethodCatalog.resume, resume)
                            var refused = 0
                            let deadline = Date().addingTimeInterval(90)
                            var index = writer
                            while refused < 10 || !diskFull.load(ordering: .relaxed), Date() < deadline {
                                let (status, details) = try connection.status(MethodCatalog.logWorkout, Self.workout(index))
                                index += writers
                                tally.withLock { tally in
                                    tally.nextIndex = max(tally.nextIndex, index)
                                    if status == .ok {
                                        tally.acknowledged += 1
                                    } else {
                                        tally.refusals[status, default: 0] += 1
                                        if status != .resourceExhausted || !details.message.contains("storage is full") {
                                            tally.otherMessages.append("\(status.name): \(details.message)")
                                        }
                                    }
                                }
                                if status != .ok { refused += 1 }
                            }
                        } catch {
                            tally.withLock { $0.otherMessages.append("writer \(writer) failed: \(error)") }
                        }
                    }
                }
                done.wait()
                let seen = tally.withLock { $0 }
                #expect(seen.refusals[.resourceExhausted, default: 0] >= writers * 10, "\(seen.refusals)")
                #expect(seen.otherMessages.isEmpty, "\(seen.otherMessages.prefix(5))")

                // Space returns: writes succeed by themselves, and every acknowledged write is there.
                try FileManager.default.removeItem(atPath: filler)
                let (status, details) = try member.connection.status(MethodCatalog.logWorkout, Self.workout(seen.nextIndex))
                #expect(status == .ok, "\(details.message)")
                var stored = 0
                var request = Workout_V1_WorkoutHistoryRequest()
                request.pageSize = 100
                for _ in 0..<10_000 {
                    let page = try member.connection.call(MethodCatalog.workoutHistory, request)
                    stored += page.workouts.count
                    if page.nextPageToken.isEmpty { break }
                    request.pageToken = page.nextPageToken
                }
                #expect(stored == seen.acknowledged + 1, "\(seen.acknowledged) acknowledged")
            }
        }
    }
}

/// Bad enum values and a missing time zone, through the real server: INVALID_ARGUMENT naming
/// the field, and no member created.
@Suite("workoutd refuses unknown enum values", .serialized)
struct EnumValidationTests {
    @Test("Register with an unknown fitness goal or an empty time zone creates nothing")
    func register() async throws {
        // On a thread of its own: a long blocking test must not hold the cooperative pool.
        try await blocking {
            try HostileDeviceTests.withServer { server, member in
                var invite = Workout_V1_CreateInviteRequest()
                invite.role = .member
                let code = try member.connection.call(MethodCatalog.createInvite, invite).code
                let membersBefore = try member.connection.call(MethodCatalog.listMembers, Workout_V1_ListMembersRequest()).members.count
                for (field, change) in [
                    ("profile.fitness_goal", { (request: inout Workout_V1_RegisterRequest) in request.profile.fitnessGoal = .UNRECOGNIZED(77) }),
                    ("profile.time_zone", { (request: inout Workout_V1_RegisterRequest) in request.profile.timeZone = "" }),
                ] {
                    var request = Workout_V1_RegisterRequest()
                    request.inviteCode = code
                    request.password = "a long enough password"
                    request.profile.email = "newcomer@example.com"
                    request.profile.firstName = "New"
                    request.profile.timeZone = "Europe/Berlin"
                    change(&request)
                    let device = try TestConnection(port: server.port, timeout: 10, source: "127.0.0.5")
                    try device.handshake()
                    let (status, details) = try device.status(MethodCatalog.register, request)
                    #expect(status == .invalidArgument, "\(field): \(details.message)")
                    #expect(details.field == field)
                }
                #expect(try member.connection.call(MethodCatalog.listMembers, Workout_V1_ListMembersRequest()).members.count == membersBefore)
            }
        }
    }
}
