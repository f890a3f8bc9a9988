/// A rule expression (or rules file) that cannot be read: Firebase's style of message and where the problem is.
public struct RuleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `Unexpected ')'.`.
    public let message: String
    /// The UTF-8 offset in the expression (or file) where it is.
    public let offset: Int

    init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(self.message) (at offset \(self.offset))" }
}
