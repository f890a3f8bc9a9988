/// A cluster configuration was refused: names the offending field (`nodes[1].peerPort`) and says how to fix it, so
/// an operator can correct the file without reading code.
public struct ClusterConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of mistake, for tests and tools.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// The file could not be read, or is not JSON.
        public static let unreadable = Code("unreadable")
        /// A key that the configuration does not know (often a misspelling).
        public static let unknownKey = Code("unknownKey")
        /// A required field is absent.
        public static let missingField = Code("missingField")
        /// A field has the wrong JSON type.
        public static let wrongType = Code("wrongType")
        /// A number is outside what the field allows.
        public static let outOfRange = Code("outOfRange")
        /// Two nodes share an id.
        public static let duplicateID = Code("duplicateID")
        /// Two listeners (HTTP or peer, of any nodes) share a host and port.
        public static let duplicateAddress = Code("duplicateAddress")
        /// A node id, host or name is not in the accepted form.
        public static let invalidName = Code("invalidName")
        /// A secret file holds no secret, or one too short to resist guessing.
        public static let weakSecret = Code("weakSecret")
    }

    public let code: Code
    /// The field at fault, as a path into the document (`nodes[1].htppPort`, `replicationFactor`).
    public let field: String
    /// What is wrong and what to do, naming the field.
    public let message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { self.message }
}
