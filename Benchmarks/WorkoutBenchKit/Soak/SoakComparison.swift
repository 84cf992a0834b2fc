/// One figure of a soak compared between its start and its end: the median of the first
/// minutes against the median of the last ones.
package struct SoakComparison: Sendable, Equatable, Codable {
    /// The median over the first minutes compared.
    package var first: Double
    /// The median over the last minutes compared.
    package var last: Double
    /// `last / first`; 1 when both are 0, `nil` when only `first` is 0.
    package var ratio: Double?
    /// Whether `last` is within ``SoakSummary/tolerance`` of `first` (both 0 counts as flat).
    package var flat: Bool

    /// Compares the medians of `firstValues` and `lastValues`.
    ///
    /// - Parameters:
    ///   - firstValues: The figure in the first minutes (not empty).
    ///   - lastValues: The figure in the last minutes (not empty).
    ///   - tolerance: The largest relative difference still flat (0.1: 10 %).
    package init(first firstValues: [Double], last lastValues: [Double], tolerance: Double) {
        first = Self.median(firstValues)
        last = Self.median(lastValues)
        if first == 0 {
            ratio = last == 0 ? 1 : nil
            flat = last == 0
        } else {
            ratio = last / first
            flat = abs(last - first) <= tolerance * first
        }
    }

    /// Encodes every key, `ratio` as `null` when it has no value.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(first, forKey: .first)
        try container.encode(last, forKey: .last)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(flat, forKey: .flat)
    }

    enum CodingKeys: String, CodingKey {
        case first, last, ratio, flat
    }

    /// The median of `values`: the middle one, or the mean of the two middle ones; 0 for none.
    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
