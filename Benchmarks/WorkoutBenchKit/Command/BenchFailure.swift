/// Why a run could not be done or finished: a message for the person running the bench, who
/// sees it as `Error: <message>` with a non-zero exit status.
package struct BenchFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, and what to do about it where that is known.
    package let message: String

    /// A failure saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
