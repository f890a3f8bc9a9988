/// Why a run could not start or finish: the message says what to do about it.
public struct StarsRunError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
