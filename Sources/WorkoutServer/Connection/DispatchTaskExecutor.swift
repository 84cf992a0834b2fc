import Dispatch

/// Runs tasks' jobs on a Dispatch queue instead of Swift's cooperative pool.
///
/// Two kinds are used:
/// - ``slowCalls``, one concurrent queue for the process: calls with slow work (scrypt at
///   login takes tens of milliseconds). The cooperative pool has one thread per core (two on a
///   small home server), and a call that holds one, or a test's blocking client waiting on one,
///   would stall every other task; Dispatch adds threads when its threads block.
/// - one per connection, on the connection's own serial queue: writes. The task runs its
///   checks on the queue, hands its transaction to the group-commit writer, and its
///   continuation comes back to the queue when the batch is committed: one thread hop there
///   and one back, where a concurrent task queue costs four (queue → task → writer → task →
///   queue), each a wake-up of another thread. A lone write that finds the writer idle costs
///   none: the queue's thread commits its batch (``Connection``, rule 3).
final class DispatchTaskExecutor: TaskExecutor {
    /// The queue the jobs run on.
    let queue: DispatchQueue

    /// An executor running every job on `queue`.
    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The executor of slow calls, shared by the process's servers.
    static let slowCalls = DispatchTaskExecutor(
        queue: DispatchQueue(label: "workout.server.slow-calls", qos: .userInitiated, attributes: .concurrent))
}
