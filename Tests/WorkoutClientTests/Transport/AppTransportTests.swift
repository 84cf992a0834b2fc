#if canImport(WorkoutTLS)
import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutProtocol
import WorkoutServer
@testable import WorkoutClient

/// The client over a transport the app supplies (``WorkoutTransport``): real calls against the
/// in-process server, the key check run inside the transport's TLS handshake, and what the
/// client does when a transport skips it.
@Suite("An app's transport under the client")
struct AppTransportTests {
    static func client(
        _ tls: TLSTrustTests.TLSHousehold, _ trust: ServerTrust, _ misbehavior: TestTransport.Misbehavior = .none
    ) -> WorkoutClient {
        WorkoutClient(
            configuration: .init(
                address: tls.address, deviceName: "app transport test", connectTimeout: .seconds(20), callTimeout: .seconds(20),
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100), maximumAttempts: 2)),
            trust: trust,
            transport: { TestTransport(misbehavior) })
    }

    @Test("Sign-in, a write, a read and a stream run over the app's TLS transport, its key checked and pinned")
    func callsOverTheAppsTransport() async throws {
        try await TLSTrustTests.withTLSHousehold { tls, identityDirectory, pinPath in
            let expected = try TLSTrustTests.fingerprint(in: identityDirectory)
            let client = Self.client(tls, ServerTrust(knownServers: KnownServers(path: pinPath), expectedFingerprint: expected))
            defer { client.close() }
            let signedIn = try await client.login(email: ownerEmail, password: ownerPassword)
            _ = try await client.logWeight(WeightEntry(weightKg: 71.5))
            #expect(try await client.weightProgress().items.count == 1)
            // A server stream: its first event arrives over the transport.
            for try await _ in client.watch(since: signedIn.revision) { break }
            #expect(try KnownServers(path: pinPath).fingerprint(for: tls.address) == expected)
        }
    }

    @Test("A changed key is refused through the app's transport, with the trust failure's data")
    func changedKeyThroughTheTransport() async throws {
        try await TLSTrustTests.withTLSHousehold { tls, identityDirectory, pinPath in
            let served = try TLSTrustTests.fingerprint(in: identityDirectory)
            let stale = ServerFingerprint(publicKey: [1, 2, 3])
            try KnownServers(path: pinPath).remember(stale, for: tls.address)
            let client = Self.client(tls, ServerTrust(knownServers: KnownServers(path: pinPath)))
            defer { client.close() }
            let error = await failure { _ = try await client.health() }
            #expect(error?.trust == TrustFailure(.keyChanged, address: tls.address, presented: served, pinned: stale))
        }
    }

    @Test("A transport that skips the key check, or ignores its refusal, is refused before anything is sent",
          arguments: [TestTransport.Misbehavior.skipsKeyCheck, .ignoresRefusal])
    func transportMustCheckTheKey(misbehavior: TestTransport.Misbehavior) async throws {
        try await TLSTrustTests.withTLSHousehold { tls, _, pinPath in
            let client = Self.client(tls, ServerTrust(knownServers: KnownServers(path: pinPath)), misbehavior)
            defer { client.close() }
            let error = await failure { _ = try await client.health() }
            #expect(error?.code == .failedPrecondition, "\(String(describing: error))")
            if misbehavior == .ignoresRefusal {
                #expect(error?.trust?.kind == .notTrustedYet)
            } else {
                #expect(error?.message.contains("without checking the server's key") == true)
            }
            #expect(!FileManager.default.fileExists(atPath: pinPath))
        }
    }

    @Test("Plain TCP runs over the app's transport too")
    func plainOverTheAppsTransport() async throws {
        try await LiveServer.run { live in
            let client = WorkoutClient(
                configuration: .init(address: live.address, transportSecurity: .plainTCP()), transport: { TestTransport() })
            defer { client.close() }
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            #expect(try await client.profile().profile.email == ownerEmail)
        }
    }

    @Test("A certificate's key and endorsements are read from its DER as OpenSSL reads them")
    func certificateFields() throws {
        let (first, firstKey) = try ServerIdentity.generate()
        let (second, _) = try ServerIdentity.generate()
        let endorsement = try KeyEndorsement(endorsing: second.fingerprint, by: firstKey)
        let (rotated, _) = try ServerIdentity.generate(endorsements: [endorsement])
        for identity in [first, rotated] {
            let base64 = identity.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let der = try #require(Data(base64Encoded: base64))
            let fields = try #require(CertificateFields(der: Array(der)))
            #expect(ServerFingerprint(publicKey: fields.subjectPublicKeyInfo) == ServerFingerprint(identity.fingerprint))
            let value = fields.extensionValue(oid: ServerKeyCheck.endorsementExtensionOID)
            #expect(value.flatMap(KeyEndorsement.decode) == (identity.endorsements.isEmpty ? nil : identity.endorsements))
        }
        #expect(CertificateFields(der: [0x30, 0x03, 0x02, 0x01]) == nil)
        #expect(CertificateFields.encode(oid: "1.2.840.10045.2.1") == [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
    }
}
#endif
