/// A rules file Firebase would refuse, with where the mistake is: the whole file is refused and the rules in force
/// stay.
public struct RulesError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let line: Int
    public let column: Int

    init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// Firebase's style, with the column: `Error saving rules - Line 4: Unexpected ')'. (column 12)`.
    public var description: String {
        "Error saving rules - Line \(self.line): \(self.message) (column \(self.column))"
    }
}
