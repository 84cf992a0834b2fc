import Foundation
import TestSupport
import Testing
import WorkoutProtocol
import WorkoutServer
#if canImport(Glibc)
import Glibc
#endif

/// A crash between the renames of ``ServerIdentity/store(_:in:)`` leaves a certificate that
/// is not the key's; the server then makes the certificate again from the key instead of
/// refusing to start.
@Suite("Server identity repair")
struct ServerIdentityRepairTests {
    @Test("A rotation that stopped before the key was renamed: the old key is served with a new certificate")
    func certificateOfAnotherKeyIsRemade() throws {
        try withTemporaryDirectory { directory in
            let old = try ServerIdentity.loadOrCreate(in: directory).identity
            let keyPath = directory + "/identity/key.pem"
            // The rotation wrote the new certificate and endorsements; the crash came before key.pem.
            let (_, new) = try ServerIdentity.rotate(in: directory)
            #expect(new.endorsements.count == 1)
            try old.privateKeyPEM.write(toFile: keyPath, atomically: false, encoding: .utf8)
            #expect(chmod(keyPath, 0o600) == 0)
            #expect(throws: IdentityError.self) { try ServerIdentity.load(from: directory) }

            var repairs: [String] = []
            let (identity, created) = try ServerIdentity.loadOrCreate(in: directory) { repairs.append($0) }
            #expect(!created)
            #expect(identity.fingerprint == old.fingerprint, "the key clients pinned is kept")
            #expect(identity.endorsements.isEmpty, "the unfinished rotation's endorsement of the new key is dropped")
            #expect(repairs.count == 1)
            #expect(repairs.first?.contains(old.fingerprint.description) == true)
            _ = try identity.makeTLSContext()
            // The repair is stored: a plain load now succeeds, and nothing more is repaired.
            #expect(try ServerIdentity.load(from: directory)?.fingerprint == old.fingerprint)
            var again: [String] = []
            _ = try ServerIdentity.loadOrCreate(in: directory) { again.append($0) }
            #expect(again.isEmpty)
        }
    }

    @Test("A missing certificate is made again from the key, keeping the endorsements that lead to it")
    func missingCertificateIsRemade() throws {
        try withTemporaryDirectory { directory in
            _ = try ServerIdentity.loadOrCreate(in: directory)
            let (_, rotated) = try ServerIdentity.rotate(in: directory)
            #expect(unlink(directory + "/identity/certificate.pem") == 0)
            var repairs: [String] = []
            let identity = try ServerIdentity.loadOrCreate(in: directory) { repairs.append($0) }.identity
            #expect(identity.fingerprint == rotated.fingerprint)
            #expect(identity.endorsements == rotated.endorsements)
            #expect(repairs.count == 1)
        }
    }
}
