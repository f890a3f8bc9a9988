/// A value the database cannot store, or a path or key it cannot address: the message says what to change.
package struct DatabaseValueError: Error, Sendable, Hashable, CustomStringConvertible {
    package let message: String

    package init(_ message: String) { self.message = message }

    package var description: String { self.message }
}
