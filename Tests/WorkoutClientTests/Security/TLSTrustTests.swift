import ClientTestSupport
import Foundation
import Synchronization
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
import WorkoutCore
import WorkoutProtocol
import WorkoutServer
#if canImport(Glibc)
import Glibc
#endif

/// The real client and the real server over TLS on loopback: trust on first use, pinning,
/// key changes and rotations, and the two sides disagreeing about TLS.
@Suite("TLS and trust on first use, end to end")
struct TLSTrustTests {
    /// A household served over TLS with `identity`, restartable with another identity on the same port.
    final class TLSHousehold: @unchecked Sendable {
        // Safe because: a test uses it from one task at a time.
        let household: HouseholdStore
        var server: WorkoutServer
        let port: Int

        init(household: HouseholdStore, identity: ServerIdentity, port: Int = 0) throws {
            self.household = household
            let context = try identity.makeTLSContext()
            server = makeServer(household: household) { configuration in
                configuration.tls = context
                configuration.port = port
            }
            self.port = try server.start()[0].port
        }

        /// Serves the same household on the same port with `identity`.
        func restart(with identity: ServerIdentity) async throws {
            await server.shutdown(gracePeriod: .seconds(1))
            let context = try identity.makeTLSContext()
            let port = port
            // The port may be taken for a moment by another test's ephemeral socket: a bounded retry.
            for attempt in 1...50 {
                server = makeServer(household: household) { configuration in
                    configuration.tls = context
                    configuration.port = port
                }
                do {
                    _ = try server.start()
                    return
                } catch where attempt < 50 {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        }

        var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: port) }

        /// A client of this household. Its connect timeout (which covers the TLS handshake, the
        /// key check and HELLO) is as generous as its calls': the suite's tests run at once, each
        /// hashing a password and making a key, and one full run saw a handshake wait over 5 s.
        func client(_ trust: ServerTrust) -> WorkoutClient {
            WorkoutClient(
                configuration: .init(
                    address: address, deviceName: "tls test", connectTimeout: .seconds(20), callTimeout: .seconds(20),
                    reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100), maximumAttempts: 2)),
                trust: trust)
        }
    }

    /// Runs `body` with a TLS household whose identity lives in a data directory of its own
    /// (so it can be rotated), and a directory for the client's pins.
    static func withTLSHousehold(_ body: (TLSHousehold, String, String) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let household = try openHousehold(at: directory)
            _ = try household.createOwner(email: ownerEmail, password: ownerPassword, firstName: "Olga", timeZone: "Europe/Berlin")
            let identityDirectory = directory + "/server"
            let pins = directory + "/client"
            try FileManager.default.createDirectory(atPath: identityDirectory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: pins, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let identity = try ServerIdentity.loadOrCreate(in: identityDirectory).identity
            let tls = try TLSHousehold(household: household, identity: identity)
            do {
                try await body(tls, identityDirectory, pins + "/known_servers")
            } catch {
                await tls.server.shutdown(gracePeriod: .seconds(1))
                household.close()
                throw error
            }
            await tls.server.shutdown(gracePeriod: .seconds(1))
            household.close()
        }
    }

    static func fingerprint(in directory: String) throws -> ServerFingerprint {
        let identity = try #require(try ServerIdentity.load(from: directory))
        return try #require(ServerFingerprint(identity.fingerprint.description))
    }

    @Test("The expected fingerprint pins the server on first use; sign-in, a write and a read then run over TLS")
    func firstUseWithFingerprint() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let expected = try Self.fingerprint(in: identityDirectory)
            let known = KnownServers(path: pinPath)
            let client = tls.client(ServerTrust(knownServers: known, expectedFingerprint: expected))
            defer { client.close() }
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            _ = try await client.logWeight(WeightEntry(weightKg: 71.5))
            #expect(try await client.weightProgress().items.count == 1)
            #expect(try known.fingerprint(for: tls.address) == expected)
            let attributes = try FileManager.default.attributesOfItem(atPath: pinPath)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            // Later connections need no fingerprint: the pin is enough.
            let again = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)))
            defer { again.close() }
            #expect(try await again.health().isServing)
        }
    }

    @Test("A server not pinned yet is refused with its fingerprint, unless the app's callback accepts it")
    func firstUseAsksTheApp() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let expected = try Self.fingerprint(in: identityDirectory)
            let refused = await failure { _ = try await tls.client(ServerTrust(knownServers: KnownServers(path: pinPath))).health() }
            #expect(refused?.code == .failedPrecondition)
            #expect(refused?.trust == TrustFailure(.notTrustedYet, address: tls.address, presented: expected))
            #expect(refused?.message.contains(expected.description) == true)
            #expect(!FileManager.default.fileExists(atPath: pinPath))

            let asked = Mutex<[ServerFingerprint]>([])
            let client = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)) { _, fingerprint in
                asked.withLock { $0.append(fingerprint) }
                return true
            })
            defer { client.close() }
            #expect(try await client.health().isServing)
            #expect(asked.withLock { $0 } == [expected])
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == expected)
        }
    }

    @Test("A different key on the same address is refused, loudly, and the pin stays")
    func changedKeyRefused() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let pinned = try Self.fingerprint(in: identityDirectory)
            try KnownServers(path: pinPath).remember(pinned, for: tls.address)
            let (impostor, _) = try ServerIdentity.generate()
            try await tls.restart(with: impostor)
            let error = await failure {
                _ = try await tls.client(ServerTrust(knownServers: KnownServers(path: pinPath))).login(email: ownerEmail, password: ownerPassword)
            }
            #expect(error?.code == .failedPrecondition)
            let presented = try #require(ServerFingerprint(impostor.fingerprint.description))
            #expect(error?.trust == TrustFailure(.keyChanged, address: tls.address, presented: presented, pinned: pinned))
            #expect(error?.message.contains(impostor.fingerprint.description) == true)
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == pinned)
        }
    }

    @Test("A rotation the old key vouched for is accepted without asking, and the new key pinned")
    func vouchedRotationAccepted() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let pinned = try Self.fingerprint(in: identityDirectory)
            try KnownServers(path: pinPath).remember(pinned, for: tls.address)
            let (_, rotated) = try ServerIdentity.rotate(in: identityDirectory)
            let (_, twice) = try ServerIdentity.rotate(in: identityDirectory)
            #expect(twice.endorsements.count == 2)
            try await tls.restart(with: twice)
            let client = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)) { _, _ in
                Issue.record("a vouched rotation must not ask")
                return false
            })
            defer { client.close() }
            #expect(try await client.health().isServing)
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address)?.description == twice.fingerprint.description)
            #expect(rotated.fingerprint != twice.fingerprint)
        }
    }

    @Test("An endorsement not signed by the pinned key does not vouch for the new key")
    func unvouchedRotationRefused() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let pinned = try Self.fingerprint(in: identityDirectory)
            try KnownServers(path: pinPath).remember(pinned, for: tls.address)
            // An attacker's key "endorsed" by another key of the attacker's.
            let (next, _) = try ServerIdentity.generate()
            let (_, otherKey) = try ServerIdentity.generate()
            let forged = try KeyEndorsement(endorsing: next.fingerprint, by: otherKey)
            let (impostor, _) = try ServerIdentity.generate(endorsements: [forged])
            try await tls.restart(with: impostor)
            let error = await failure { _ = try await tls.client(ServerTrust(knownServers: KnownServers(path: pinPath))).health() }
            #expect(error?.trust?.kind == .keyChanged, "\(String(describing: error))")
        }
    }

    @Test("A pin file others can change is refused", arguments: [0o666, 0o620, 0o602])
    func loosePinFile(mode: Int) async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let pinned = try Self.fingerprint(in: identityDirectory)
            try KnownServers(path: pinPath).remember(pinned, for: tls.address)
            #expect(chmod(pinPath, mode_t(mode)) == 0)
            let error = await failure { _ = try await tls.client(ServerTrust(knownServers: KnownServers(path: pinPath))).health() }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("can be changed by other users") == true)
        }
    }

    @Test("A client speaking plain TCP to the TLS port is told the server requires TLS")
    func plainClientToTLSPort() async throws {
        try await Self.withTLSHousehold { tls, _, _ in
            let client = WorkoutClient(configuration: .init(
                address: tls.address, connectTimeout: .seconds(3), reconnect: ReconnectPolicy(maximumAttempts: 1),
                transportSecurity: .plainTCP()))
            defer { client.close() }
            let error = await failure { _ = try await client.health() }
            #expect(error?.message.contains("requires TLS") == true, "\(String(describing: error))")

            try await blocking {
                let raw = try TestConnection(port: tls.port)
                var bytes: [UInt8] = []
                Preface(offering: 1...1).encode(into: &bytes)
                try raw.write(bytes)
                #expect(try raw.readPreface().isRefusal)
                let frame = try raw.readFrame()
                #expect(frame.type == .goAway)
                let (status, details) = try TestConnection.status(of: frame)
                #expect(status == .failedPrecondition)
                #expect(details.message.contains("requires TLS"))
            }
        }
    }

    @Test("A TLS client to a plain port is told the server speaks plain TCP, and does not retry")
    func tlsClientToPlainPort() async throws {
        try await withServer { _, _, port in
            let client = WorkoutClient(
                configuration: .init(address: ServerAddress(host: "127.0.0.1", port: port), connectTimeout: .seconds(3)),
                trust: ServerTrust(confirmNewServer: { _, _ in true }))
            defer { client.close() }
            // Refused at once, not retried: the answer is final.
            let error = await failure { _ = try await client.health() }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.trust?.kind == .serverSpeaksPlainTCP, "\(String(describing: error))")
            #expect(client.connectionsOpened == 0)
        }
    }

    @Test("An invite carrying the server's fingerprint pins it without asking anybody")
    func inviteCarriesTheFingerprint() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let fingerprint = try Self.fingerprint(in: identityDirectory)
            let created = try tls.household.createInviteLocally(role: .member)
            let text = InviteCode(code: created.code, serverFingerprint: fingerprint).description
            #expect(text.hasPrefix(created.code + "@"))
            let invite = try #require(InviteCode(text))
            #expect(invite.serverFingerprint == fingerprint)
            #expect(InviteCode(created.code + "@NOT-A-FINGERPRINT") == nil)

            // The app passes the whole text and sets no expected fingerprint: the invite's is enough.
            let client = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)) { _, _ in
                Issue.record("an invite with the fingerprint must not ask")
                return false
            })
            defer { client.close() }
            let member = NewMember(email: "mia@example.com", firstName: "Mia", timeZone: "Europe/Berlin")
            _ = try await client.register(inviteCode: text, member: member, password: "a long enough password")
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == fingerprint)

            // The next launch trusts the pinned server with no invite and no question.
            let relaunched = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)))
            defer { relaunched.close() }
            _ = try await relaunched.health()
        }
    }

    @Test(
        "An invite whose fingerprint is not the key the server proved is refused before anything is sent, and pins nothing",
        arguments: [true, false])
    func inviteForAnotherServerRefused(pinnedBefore: Bool) async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let served = try Self.fingerprint(in: identityDirectory)
            // The invite names another server's key. Pinned before, the client trusts this server
            // already, so only register's own check can notice; not pinned, the invite's key is
            // the one expected, and the server is refused before any pin.
            let (other, _) = try ServerIdentity.generate()
            let inviteFingerprint = try #require(ServerFingerprint(other.fingerprint.description))
            if pinnedBefore { try KnownServers(path: pinPath).remember(served, for: tls.address) }
            let created = try tls.household.createInviteLocally(role: .member)
            let text = InviteCode(code: created.code, serverFingerprint: inviteFingerprint).description
            let client = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)))
            defer { client.close() }
            let member = NewMember(email: "mia@example.com", firstName: "Mia", timeZone: "Europe/Berlin")
            let error = await failure {
                _ = try await client.register(inviteCode: text, member: member, password: "a long enough password")
            }
            #expect(error?.code == .failedPrecondition)
            #expect(
                error?.trust == TrustFailure(.inviteKeyMismatch, address: tls.address, presented: served, expected: inviteFingerprint),
                "\(String(describing: error))")
            #expect(error?.message.contains(inviteFingerprint.description) == true, "\(String(describing: error))")
            #expect(error?.message.contains(served.description) == true, "\(String(describing: error))")
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == (pinnedBefore ? served : nil))
            // Nothing was sent: the code is still unused, and the right invite registers with it.
            let right = InviteCode(code: created.code, serverFingerprint: served).description
            _ = try await client.register(inviteCode: right, member: member, password: "a long enough password")
        }
    }

    @Test("An invite whose part after @ is not a fingerprint is refused before anything is sent")
    func inviteWithABrokenFingerprintRefused() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let served = try Self.fingerprint(in: identityDirectory)
            try KnownServers(path: pinPath).remember(served, for: tls.address)
            let created = try tls.household.createInviteLocally(role: .member)
            // The fingerprint with its last character changed: 4 padding bits not zero.
            var broken = served.description
            broken.removeLast()
            broken += served.description.hasSuffix("Q") ? "R" : "B"
            let client = tls.client(ServerTrust(knownServers: KnownServers(path: pinPath)))
            defer { client.close() }
            let member = NewMember(email: "mia@example.com", firstName: "Mia", timeZone: "Europe/Berlin")
            let error = await failure {
                _ = try await client.register(inviteCode: created.code + "@" + broken, member: member, password: "a long enough password")
            }
            #expect(error?.code == .invalidArgument, "\(String(describing: error))")
            #expect(error?.trust == TrustFailure(.inviteFingerprintInvalid, address: tls.address, text: broken))
            #expect(client.connectionsOpened == 0)
            // Nothing was sent: the code is still unused.
            _ = try await client.register(inviteCode: created.code + "@" + served.description, member: member, password: "a long enough password")
        }
    }

    @Test("A password is not sent over plain TCP beyond loopback unless allowed")
    func noPasswordOverPlainTCP() async throws {
        let client = WorkoutClient(configuration: .init(
            address: ServerAddress(host: "192.0.2.1", port: 7420), connectTimeout: .milliseconds(200),
            reconnect: ReconnectPolicy(maximumAttempts: 1), transportSecurity: .plainTCP()))
        defer { client.close() }
        let error = await failure { _ = try await client.login(email: ownerEmail, password: ownerPassword) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("refusing to send a password") == true)
        #expect(error?.trust?.kind == .plainTCPRefused)
    }

    @Test("Pins in the documented file outlive the client: after a relaunch the first rotation is accepted")
    func rotationAfterRelaunch() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let first = try Self.fingerprint(in: identityDirectory)
            // The set-up GettingStarted shows: a pin file, and the fingerprint the server printed.
            func documentedTrust() -> ServerTrust {
                ServerTrust(knownServers: KnownServers(path: pinPath), expectedFingerprint: first)
            }
            let before = tls.client(documentedTrust())
            #expect(try await before.health().isServing)
            before.close()

            let (_, rotated) = try ServerIdentity.rotate(in: identityDirectory)
            try await tls.restart(with: rotated)
            // The app launched again: a new client, sharing only the file.
            let after = tls.client(documentedTrust())
            defer { after.close() }
            #expect(try await after.health().isServing)
            let second = try #require(ServerFingerprint(rotated.fingerprint.description))
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == second)
            // The expected key alone vouches too (pins in memory, as a first launch after the rotation).
            let fresh = tls.client(ServerTrust(expectedFingerprint: first))
            defer { fresh.close() }
            #expect(try await fresh.health().isServing)
        }
    }

    @Test("Forgetting a pin makes the next connection a first use again")
    func forgetAPin() async throws {
        try await Self.withTLSHousehold { tls, identityDirectory, pinPath in
            let served = try Self.fingerprint(in: identityDirectory)
            let (other, _) = try ServerIdentity.generate()
            let stale = try #require(ServerFingerprint(other.fingerprint.description))
            let pins = KnownServers(path: pinPath)
            try pins.remember(stale, for: tls.address)
            let refused = await failure { _ = try await tls.client(ServerTrust(knownServers: pins)).health() }
            #expect(refused?.trust?.kind == .keyChanged)

            try pins.forget(tls.address)
            #expect(try pins.fingerprint(for: tls.address) == nil)
            try pins.forget(tls.address)  // nothing to forget: no error
            let client = tls.client(ServerTrust(knownServers: pins, confirmNewServer: { _, _ in true }))
            defer { client.close() }
            #expect(try await client.health().isServing)
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == served)
        }
    }
}
