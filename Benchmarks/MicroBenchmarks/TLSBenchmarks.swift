import Benchmark

/// TLS's share of a call: ``TLSRoundTrip`` (a meals-day request and reply through a client and
/// a server session, both sides' work), and a connection's TLS handshake (``TLSHandshake``).
/// Figures are per call and per handshake.
enum TLSBenchmarks {
    static func register() {
        let pair = FixtureSlot<TLSRoundTrip>()
        let configuration = Benchmark.Configuration(
            scalingFactor: .kilo,
            setup: { pair.value = try TLSRoundTrip() },
            teardown: { pair.value = nil })

        Benchmark("tls: a meals-day request and reply, both sides (TLS 1.3 over memory BIOs)", configuration: configuration) { benchmark in
            let sessions = try pair.get()
            for _ in benchmark.scaledIterations {
                try sessions.roundTrip()
            }
        }

        let contexts = FixtureSlot<TLSHandshake>()
        Benchmark(
            "tls: a full handshake, both sides (TLS 1.3, P-256 server key)",
            configuration: Benchmark.Configuration(
                setup: { contexts.value = try TLSHandshake() },
                teardown: { contexts.value = nil })
        ) { benchmark in
            let handshake = try contexts.get()
            for _ in benchmark.scaledIterations {
                try handshake.handshake()
            }
        }
    }
}
