import SystemCalls
import ArgumentParser
import Foundation
import LMDB
import Storage
import WorkoutCore
import WorkoutRules

/// How a `workoutd` command failed, and the exit code that says so.
///
/// Exit codes (also in `workoutd --help`):
/// - 0: success;
/// - 1: usage or bad input (ArgumentParser's parse and validation errors, a bad configuration,
///      an invalid email, a short password, an unknown member);
/// - 2: a store or data directory problem (cannot be created, opened, read or written; not a
///      Workout store; written by a newer version);
/// - 3: refused (an owner exists already, a server is running on the data directory, the
///      target holds a store or backup already).
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// A class of failure, one per exit code.
    enum Kind: Int32, Sendable {
        /// Usage or bad input: exit code 1.
        case badInput = 1
        /// A store or data directory problem: exit code 2.
        case store = 2
        /// Refused: exit code 3.
        case refused = 3
    }

    /// The class of failure.
    let kind: Kind
    /// What went wrong, as the user reads it on standard error.
    let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The process's exit code.
    var exitCode: Int32 { kind.rawValue }

    var description: String { message }

    /// Classifies any error a command's `run()` throws.
    init(classifying error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as DomainError:
            switch error.code {
            case .failedPrecondition, .permissionDenied, .alreadyExists:
                self.init(.refused, error.message)
            case .invalidArgument, .notFound, .outOfRange, .unauthenticated:
                self.init(.badInput, error.message)
            default:
                self.init(.store, error.message)
            }
        case let error as StorageError:
            self.init(error.code == .storeExists ? .refused : .store, error.description)
        case let error as DataDirectoryLockError:
            self.init(error.code == .held ? .refused : .store, error.description)
        case let error as ConfigurationError:
            self.init(.badInput, error.message)
        case let error as ValidationError:
            self.init(.badInput, error.message)
        case let error as LMDBError:
            self.init(.store, "the store failed: \(error)")
        case let error as SystemCallError:
            self.init(.store, error.description)
        default:
            self.init(.store, "\(error)")
        }
    }
}

/// Writing to standard error.
enum StandardError {
    /// Writes `text` and a newline to standard error.
    static func print(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
