/// A path, key or value that breaks Firebase's data rules; its message says what to change.
public struct PathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule was broken.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        public static let invalidKey = Code("invalidKey")
        public static let keyTooLong = Code("keyTooLong")
        public static let pathTooDeep = Code("pathTooDeep")
        public static let pathTooLong = Code("pathTooLong")
        public static let invalidValue = Code("invalidValue")
        public static let reservedPath = Code("reservedPath")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { self.message }

    /// Quotes a user-supplied string for an error message, cutting it short so messages stay readable.
    static func quoted(_ string: String) -> String {
        let shown = string.count > 80 ? String(string.prefix(80)) + "…" : string
        var escaped = ""
        for scalar in shown.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
