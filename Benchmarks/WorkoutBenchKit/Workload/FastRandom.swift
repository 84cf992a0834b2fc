/// A small, fast, seedable pseudo-random generator (SplitMix64): picks request parameters in
/// the hot path without a system call, and makes preloaded data reproducible. Not for secrets.
package struct FastRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    @inline(__always)
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (bound > 0), by multiply-shift (the bias is below 2⁻³² for the
    /// bounds a benchmark uses).
    @inline(__always)
    package mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        return next().multipliedFullWidth(by: bound).high
    }
}
