/// Why a workout file cannot be read: it is not of a format read here, is damaged, ends early,
/// or is larger than the bounds. Its message names what is wrong, in the words of the format.
package struct WorkoutFileError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, for people.
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
