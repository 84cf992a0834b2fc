import WorkoutProtocol

/// How ``WorkoutClient`` retries connecting: exponential backoff with jitter, a bounded
/// number of attempts per connection request.
///
/// Attempt *n* (counting from 1 after the first failure) waits
/// `min(maximumDelay, initialDelay × multiplierⁿ⁻¹)`, scaled by a random factor in
/// `1 − jitter ... 1 + jitter`, so a household of phones that lost the server at the same
/// moment does not come back in lockstep.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait after the first failed attempt.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration
    /// How much each wait grows over the previous one.
    public var multiplier: Double
    /// The random spread around each wait, as a fraction (0 = none, 0.2 = ±20 %).
    public var jitter: Double
    /// How many connection attempts one call may make before it fails with `UNAVAILABLE`.
    public var maximumAttempts: Int

    /// Makes a policy.
    ///
    /// - Parameters:
    ///   - initialDelay: The first wait.
    ///   - maximumDelay: The longest wait.
    ///   - multiplier: The growth per attempt (at least 1).
    ///   - jitter: The random spread, 0 through 1.
    ///   - maximumAttempts: Attempts per connection request (at least 1).
    public init(
        initialDelay: Duration = .milliseconds(100),
        maximumDelay: Duration = .seconds(5),
        multiplier: Double = 2,
        jitter: Double = 0.2,
        maximumAttempts: Int = 6
    ) {
        self.initialDelay = max(initialDelay, .zero)
        self.maximumDelay = max(maximumDelay, self.initialDelay)
        self.multiplier = max(multiplier, 1)
        self.jitter = min(max(jitter, 0), 1)
        self.maximumAttempts = max(maximumAttempts, 1)
    }

    /// For an interactive tool: fail fast when the server is not there.
    public static let interactive = ReconnectPolicy(
        initialDelay: .milliseconds(100), maximumDelay: .seconds(1), maximumAttempts: 2)

    /// The wait before attempt `attempt + 1`, after `attempt` failures (1 or more).
    ///
    /// - Parameters:
    ///   - attempt: How many attempts have failed so far.
    ///   - generator: The randomness for the jitter.
    public func delay(afterFailures attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = Double(max(attempt, 1) - 1)
        let base = Double(initialDelay.wholeNanoseconds) * pow(multiplier, min(exponent, 64))
        let capped = min(base, Double(maximumDelay.wholeNanoseconds))
        let factor = jitter == 0 ? 1 : Double.random(in: (1 - jitter)...(1 + jitter), using: &generator)
        return .nanoseconds(Int64(min(capped * factor, Double(Int64.max / 2))))
    }

    /// The wait before the next attempt, with the system's randomness.
    public func delay(afterFailures attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterFailures: attempt, using: &generator)
    }
}

/// `pow` without Foundation.
private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    var remaining = Int(exponent)
    while remaining > 0 {
        result *= base
        remaining -= 1
        if result.isInfinite { break }
    }
    return result
}
