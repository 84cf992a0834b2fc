import Foundation
import Testing
import TestSupport
@testable import workoutd

@Suite("The data directory's lock")
struct DataDirectoryLockTests {
    @Test("A second lock on the same directory is refused until the first is released")
    func exclusive() throws {
        try withTemporaryDirectory { path in
            let directory = path + "/new/data"
            let first = try DataDirectoryLock(dataDirectory: directory)
            #expect(first.isHeld)
            #expect(FileManager.default.fileExists(atPath: directory + "/workoutd.lock"))
            let recorded = try String(contentsOfFile: directory + "/workoutd.lock", encoding: .utf8)
            #expect(recorded == "\(getpid())\n")
            let error = #expect(throws: DataDirectoryLockError.self) { _ = try DataDirectoryLock(dataDirectory: directory) }
            #expect(error?.code == .held)
            #expect(error?.message.hasPrefix("a server is running on this data directory") == true)
            first.release()
            first.release()
            #expect(!first.isHeld)
            // The lock's descriptor is close-on-exec, but a process another test spawns at that
            // moment shares it between its fork and its exec: on a loaded machine that window
            // once outlasted the release. Try again for a bounded time.
            var again: DataDirectoryLock?
            for _ in 0..<100 where again == nil {
                do {
                    again = try DataDirectoryLock(dataDirectory: directory)
                } catch let error as DataDirectoryLockError where error.code == .held {
                    usleep(50_000)
                }
            }
            #expect(again?.isHeld == true)
            again?.release()
        }
    }

    @Test("A data directory that is a file cannot be locked")
    func file() throws {
        try withTemporaryDirectory { path in
            try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/file"))
            let error = #expect(throws: DataDirectoryLockError.self) { _ = try DataDirectoryLock(dataDirectory: path + "/file") }
            #expect(error?.code == .unusable)
            #expect(error?.message.contains("is not a directory") == true)
        }
    }
}
