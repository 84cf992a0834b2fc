import Foundation
package import Glibc

/// Starts a child process with `posix_spawn`, as Foundation's `Process.run()` does, but
/// without its scan of `/proc/self/fd`: on Linux that scan over-reads its directory buffer and
/// crashes now and then (swift-corelibs-foundation PR #5472, not in Swift 6.3.1), which a test
/// suite that spawns hundreds of processes meets. The child's descriptors from 3 up are closed
/// with glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), its signals
/// reset to their defaults and unblocked.
package enum Spawn {
    /// Why a process could not be started.
    package struct Failure: Error, CustomStringConvertible {
        /// What failed, with the call and its errno.
        package let description: String
    }

    /// Starts `executable` with `arguments` and exactly `environment`, in `directory`, its
    /// standard input, output and error on the given descriptors; its process id.
    package static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String?,
        input: Int32, output: Int32, error: Int32
    ) throws(Failure) -> pid_t {
        guard let closeFrom = addCloseFrom, let changeDirectory = addChangeDirectory else {
            throw Failure(description: "posix_spawn_file_actions_addclosefrom_np and _addchdir_np need glibc 2.34 or later")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (from, to) in [(input, Int32(0)), (output, 1), (error, 2)] {
            let status = posix_spawn_file_actions_adddup2(&actions, from, to)
            guard status == 0 else { throw Failure(description: "posix_spawn_file_actions_adddup2: errno \(status)") }
        }
        if let directory {
            let status = directory.withCString { changeDirectory(&actions, $0) }
            guard status == 0 else { throw Failure(description: "posix_spawn_file_actions_addchdir_np: errno \(status)") }
        }
        let closed = closeFrom(&actions, 3)
        guard closed == 0 else { throw Failure(description: "posix_spawn_file_actions_addclosefrom_np: errno \(closed)") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// How a child ended.
    package enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// Waits for `pid` to end.
    package static func wait(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return .exited(-1) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    private typealias FileActionInt = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias FileActionPath = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's GNU extensions, which the Glibc module does not import.
    private static let addCloseFrom: FileActionInt? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let addChangeDirectory: FileActionPath? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
