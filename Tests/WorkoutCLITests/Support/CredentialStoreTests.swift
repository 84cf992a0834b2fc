import Foundation
import Testing
import TestSupport
import WorkoutClient
@testable import workout

/// Where credentials are kept, with which permissions, and that they read back.
@Suite("Credentials file")
struct CredentialStoreTests {
    static let token = SessionToken(base64: Data(repeating: 7, count: 32).base64EncodedString())!

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("The directory: WORKOUT_CONFIG_DIR, else XDG_CONFIG_HOME/workout, else ~/.config/workout", arguments: [
        (["WORKOUT_CONFIG_DIR": "/etc/w", "XDG_CONFIG_HOME": "/x", "HOME": "/home/ada"], "/etc/w"),
        (["WORKOUT_CONFIG_DIR": "", "XDG_CONFIG_HOME": "/x", "HOME": "/home/ada"], "/x/workout"),
        (["XDG_CONFIG_HOME": "relative", "HOME": "/home/ada"], "/home/ada/.config/workout"),
        (["HOME": "/home/ada"], "/home/ada/.config/workout"),
    ])
    func directory(environment: [String: String], expected: String) {
        #expect(CredentialStore.directory(environment: environment) == expected)
    }

    @Test("Saved credentials read back; the file is 0600 in a 0700 directory; no temporary file is left")
    func roundTrip() throws {
        try withTemporaryDirectory { path in
            let store = CredentialStore(directory: path + "/nested/workout")
            #expect(try store.load() == nil)
            let credentials = Credentials(
                server: "nas.local:7420", email: "ada@example.com", sessionToken: Self.token,
                signedInAt: Date(timeIntervalSince1970: 1_748_755_800))
            try store.save(credentials)
            #expect(try store.load() == credentials)
            #expect(try Self.mode(store.path) == 0o600)
            #expect(try Self.mode(store.directory) == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == ["credentials.json"])
            let text = try String(contentsOfFile: store.path, encoding: .utf8)
            #expect(text.contains("\"sessionToken\" : \"\(Self.token.base64)\""))
            #expect(!text.lowercased().contains("password"))
        }
    }

    @Test("Saving replaces the credentials and keeps mode 0600 whatever the umask; delete removes them")
    func replaceAndDelete() throws {
        try withTemporaryDirectory { path in
            let store = CredentialStore(directory: path)
            let old = umask(0)
            defer { umask(old) }
            try store.save(Credentials(server: "a:1", email: "a@example.com", sessionToken: Self.token))
            try store.save(Credentials(server: "b:2", email: "b@example.com", sessionToken: Self.token))
            #expect(try store.load()?.server == "b:2")
            #expect(try Self.mode(store.path) == 0o600)
            #expect(try store.delete())
            #expect(try store.load() == nil)
            #expect(try store.delete() == false)
        }
    }

    @Test("A damaged file is reported, not taken for signed out")
    func damaged() throws {
        try withTemporaryDirectory { path in
            let store = CredentialStore(directory: path)
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path))
            #expect {
                try store.load()
            } throws: { error in
                (error as? CLIError)?.message.contains("damaged") == true
            }
        }
    }
}
