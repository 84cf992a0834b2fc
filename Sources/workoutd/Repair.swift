import ArgumentParser
import Foundation
import Storage

/// `workoutd repair`: opens a store whose write-ahead log cannot be replayed whole, keeping what
/// is provably good, and says what was dropped.
///
/// A server refuses to open such a store: damage in the log with acknowledged records after it,
/// or a log and checkpoint that belong to another data file (one put in the store's place).
/// This command replays every transaction up to the damage and drops the rest, or opens the data
/// file as it is without the foreign log; it copies what it drops beside the store
/// (`wal-0.set-aside`, …) and prints it. Restoring the last backup loses less when the damage is
/// early; the command's output says how many transactions the log held after it.
struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a store whose write-ahead log is damaged or not its own, keeping what is provably good.",
        discussion: """
            Use it when `workoutd serve` refuses the store with "the write-ahead log … is damaged" \
            or "is not the data file that the checkpoint … belongs to". Every transaction up to \
            the damage is kept; the transactions logged after it are dropped, and the log's files \
            are copied aside first (wal-0.set-aside, wal-1.set-aside, checkpoint.set-aside). \
            Refused while a server runs on the data directory. Compare with the last backup \
            (`workoutd restore`) before choosing: the output says what was dropped.
            """)

    @OptionGroup var options: DataDirectoryOptions

    func run() throws {
        let directory = try options.resolvedDataDirectory()
        try DataDirectoryOwner.check(directory)
        let recovery = try DataDirectoryLock.withLock(dataDirectory: directory) { _ in
            try Store.recover(directory: directory, repairing: true)
        }
        guard let recovery else {
            print("\(directory) holds no store: nothing to repair")
            return
        }
        print("replayed \(recovery.replayedTransactions) transaction(s) from the write-ahead log")
        if let damage = recovery.damage { print(damage) }
        for file in recovery.setAside { print("set aside: \(file)") }
        if recovery.damage == nil && recovery.setAside.isEmpty {
            print("the store and its write-ahead log were whole: nothing was dropped")
        } else {
            print("the store opens again; run `workoutd backup` once the server is up")
        }
    }
}
