/// A fan-out run that could not be carried out: a server that cannot be reached, listeners that never subscribed,
/// a write the server refused. The message says which.
public struct FanoutRunError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
