/// `SWIMSettings` that cannot work; the message names the setting and the range it must be in.
public struct SWIMSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule was broken.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// A duration or count outside the range the protocol needs.
        public static let outOfRange = Code("outOfRange")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "invalid membership settings: \(self.message)" }
}
