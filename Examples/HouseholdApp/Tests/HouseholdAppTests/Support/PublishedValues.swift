import Observation

/// Every value of an observable property that Observation publishes, as a SwiftUI view
/// would see them, from the value at the start until ``stop()``.
@MainActor final class PublishedValues<Value: Sendable> {
    /// The values seen, in order.
    private(set) var values: [Value] = []
    private let read: @MainActor () -> Value
    private var stopped = false

    /// Starts recording what `read` returns, now and at every change.
    init(_ read: @escaping @MainActor () -> Value) {
        self.read = read
        track()
    }

    /// Records no more values.
    func stop() {
        stopped = true
    }

    private func track() {
        guard !stopped else { return }
        let value = withObservationTracking { read() } onChange: { [weak self] in
            Task { @MainActor in self?.track() }
        }
        values.append(value)
    }
}
