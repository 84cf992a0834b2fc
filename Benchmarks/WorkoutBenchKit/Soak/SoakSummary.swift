/// Whether a soak stayed flat: the medians of the first and the last minutes (ten each, or
/// half the run when it is shorter than twenty minutes) of the server's memory, descriptors,
/// store size and the bench's p99, and whether each stayed within 10 %. The report's
/// `soak_summary`.
///
/// The verdict (``flat``) is on anonymous memory, descriptors and p99: what a leak or a
/// slow-down shows in. Whole RSS and the store's map size are compared too, but they grow with
/// the data the soak itself writes (resident pages of the mapped store), so they inform rather
/// than decide.
package struct SoakSummary: Sendable, Equatable, Codable {
    /// The largest relative difference that is still flat.
    package static let tolerance = 0.10
    /// The most minutes compared at each end.
    package static let maxMinutesCompared = 10

    /// Minutes compared at each end.
    package var minutesCompared: Int
    /// The server's anonymous resident memory, bytes.
    package var rssAnonBytes: SoakComparison
    /// The server's whole resident memory, bytes.
    package var rssBytes: SoakComparison
    /// Descriptors the server holds open.
    package var openDescriptors: SoakComparison
    /// The LMDB map size, bytes.
    package var storeSizeBytes: SoakComparison
    /// The minute's p99 latency, µs.
    package var p99Microseconds: SoakComparison
    /// Whether anonymous memory, descriptors and p99 all stayed flat.
    package var flat: Bool

    /// The summary of `minutes` (in order), or `nil` for fewer than two.
    package init?(minutes: [SoakMinute]) {
        guard minutes.count >= 2 else { return nil }
        let compared = min(Self.maxMinutesCompared, minutes.count / 2)
        let head = minutes.prefix(compared)
        let tail = minutes.suffix(compared)
        func compare(_ figure: (SoakMinute) -> Double) -> SoakComparison {
            SoakComparison(first: head.map(figure), last: tail.map(figure), tolerance: Self.tolerance)
        }
        minutesCompared = compared
        rssAnonBytes = compare { Double($0.rssAnonBytes) }
        rssBytes = compare { Double($0.rssBytes) }
        openDescriptors = compare { Double($0.openDescriptors) }
        storeSizeBytes = compare { Double($0.storeSizeBytes) }
        p99Microseconds = compare { $0.p99Microseconds }
        flat = rssAnonBytes.flat && openDescriptors.flat && p99Microseconds.flat
    }

    enum CodingKeys: String, CodingKey {
        case flat
        case minutesCompared = "minutes_compared"
        case rssAnonBytes = "rss_anon_bytes"
        case rssBytes = "rss_bytes"
        case openDescriptors = "open_descriptors"
        case storeSizeBytes = "store_size_bytes"
        case p99Microseconds = "p99_us"
    }
}
