/// A query that Firebase would refuse; its message says which parameter to change and how.
///
/// Thrown when parsing a wire `q` object, REST query parameters, or building a `QuerySpec` whose bounds don't fit its
/// index. Front ends render `message` as Firebase does: `{"error": "<message>"}` with HTTP 400, or a failed listen.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule the query broke.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// A REST filter parameter was given without `orderBy`.
        public static let orderByRequired = Code("orderByRequired")
        /// The index is not `$key`, `$value`, `$priority` or a valid child path.
        public static let invalidOrderBy = Code("invalidOrderBy")
        /// A start, end or equality bound is not valid JSON, or its value or name does not fit the index.
        public static let invalidBound = Code("invalidBound")
        /// Two parameters that can't be combined, such as `equalTo` with `startAt`, or both limits.
        public static let conflictingParameters = Code("conflictingParameters")
        /// A limit that is not a positive integer.
        public static let invalidLimit = Code("invalidLimit")
        /// A wire query object with the wrong shape (not an object, or a member of the wrong type).
        public static let malformedQuery = Code("malformedQuery")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { self.message }
}
