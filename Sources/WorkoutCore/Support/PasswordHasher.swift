import Crypto
import _CryptoExtras
import Dispatch
import Foundation
import WorkoutProtocol

/// Hashes and checks passwords with scrypt (swift-crypto's CryptoExtras).
///
/// Each hash gets 16 random bytes of salt and records its parameters beside it, so the
/// parameters can be raised later: ``needsRehash(_:)`` tells a login to store a fresh hash.
/// Hashing is deliberately slow and memory-hard (32 MiB at the standard parameters): never
/// call it inside a write transaction.
package struct PasswordHasher: Sendable {
    /// scrypt's cost parameters.
    package struct Parameters: Sendable, Hashable {
        /// N, a power of two: CPU and memory cost.
        package var rounds: Int
        /// r, the block size.
        package var blockSize: Int
        /// p, the parallelism.
        package var parallelism: Int

        /// N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per hash.
        package static let standard = Parameters(rounds: 1 << 15, blockSize: 8, parallelism: 1)
        /// N = 2^10: for tests only, where thousands of hashes must be cheap.
        package static let fastForTests = Parameters(rounds: 1 << 10, blockSize: 8, parallelism: 1)
    }

    /// The parameters new hashes are made with.
    package let parameters: Parameters

    /// A hasher making new hashes with `parameters`.
    package init(parameters: Parameters = .standard) {
        self.parameters = parameters
    }

    /// Hashes `password` with a fresh salt.
    package func hash(_ password: String) throws -> Workout_Store_V1_PasswordHash {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255, using: &generator) }
        var stored = Workout_Store_V1_PasswordHash()
        stored.algorithm = "scrypt"
        stored.salt = Data(salt)
        stored.rounds = UInt64(parameters.rounds)
        stored.blockSize = UInt32(parameters.blockSize)
        stored.parallelism = UInt32(parameters.parallelism)
        stored.hash = try derive(password, salt: salt, rounds: parameters.rounds, blockSize: parameters.blockSize, parallelism: parameters.parallelism)
        return stored
    }

    /// Whether `password` matches `stored`, compared in constant time.
    package func verify(_ password: String, against stored: Workout_Store_V1_PasswordHash) -> Bool {
        guard stored.algorithm == "scrypt", stored.rounds >= 2, stored.rounds <= 1 << 22,
              stored.blockSize >= 1, stored.blockSize <= 64, stored.parallelism >= 1, stored.parallelism <= 16,
              let derived = try? derive(password, salt: Array(stored.salt), rounds: Int(stored.rounds),
                                        blockSize: Int(stored.blockSize), parallelism: Int(stored.parallelism))
        else { return false }
        return ConstantTime.equal(Array(derived), Array(stored.hash))
    }

    /// Whether `stored` was made with weaker parameters than the current ones.
    package func needsRehash(_ stored: Workout_Store_V1_PasswordHash) -> Bool {
        stored.algorithm != "scrypt" || stored.rounds < UInt64(parameters.rounds)
            || stored.blockSize < UInt32(parameters.blockSize) || stored.parallelism < UInt32(parameters.parallelism)
    }

    /// At most one scrypt per core at a time: each takes 128 × N × r bytes (32 MiB at the
    /// standard parameters), so a burst of logins cannot take the machine's memory.
    private static let slots = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private func derive(_ password: String, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int) throws -> Data {
        Self.slots.wait()
        defer { Self.slots.signal() }
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32,
            rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return key.withUnsafeBytes { Data($0) }
    }
}

/// Comparisons whose time does not depend on where the inputs differ.
package enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte whatever the first difference.
    package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
