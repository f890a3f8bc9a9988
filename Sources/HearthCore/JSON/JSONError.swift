/// A JSON document that breaks RFC 8259 (or the reader's limits); the message names the problem and where it is.
///
/// Servers render it to clients as `{"error": "<message>"}`. `offset` is the zero-based byte offset in the input at
/// which the problem was found, so the message stays useful for multi-megabyte bodies.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule was broken.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// The input ended inside a value (or was empty).
        public static let unexpectedEnd = Code("unexpectedEnd")
        /// A byte that cannot start or continue the value being read.
        public static let unexpectedCharacter = Code("unexpectedCharacter")
        /// A number that is not in RFC 8259's grammar (leading zeros, missing digits…).
        public static let invalidNumber = Code("invalidNumber")
        /// A number too large to be represented as a finite double.
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// A backslash escape that RFC 8259 does not define, or a bad `\u` sequence.
        public static let invalidEscape = Code("invalidEscape")
        /// A `\u` escape naming half of a surrogate pair without the other half.
        public static let loneSurrogate = Code("loneSurrogate")
        /// A raw control character (U+0000–U+001F) inside a string.
        public static let controlCharacter = Code("controlCharacter")
        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Code("invalidUTF8")
        /// Arrays and objects nested deeper than the reader allows.
        public static let nestingTooDeep = Code("nestingTooDeep")
        /// Something other than whitespace after the document's single value.
        public static let trailingCharacters = Code("trailingCharacters")
    }

    public let code: Code
    public let message: String
    /// Zero-based byte offset of the problem in the input.
    public let offset: Int

    public init(_ code: Code, _ message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String { self.message }
}
