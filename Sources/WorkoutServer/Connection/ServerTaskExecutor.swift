import Dispatch

/// Runs the server's tasks (writes, logins) on a Dispatch concurrent queue instead of Swift's
/// cooperative pool.
///
/// The cooperative pool has one thread per core (two on a small home server), and a call that
/// holds one — scrypt at login takes tens of milliseconds, and a test's blocking client holds
/// one while it waits — would stall every other task. Dispatch adds threads when its threads
/// block, so the server's calls keep moving whatever else the process does.
final class ServerTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "workout.server.tasks", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The one executor of the process's servers.
    static let shared = ServerTaskExecutor()
}
