/// One input surface to fuzz: valid inputs to start from, tokens worth inserting, and a body that feeds one input
/// to the real decoder, parser or state machine and checks its contract, returning whether the input got through
/// to a value (the share of inputs that do shows how deep a run reaches).
///
/// The contract of every surface is the same: the input yields a value or a typed error, never a crash, a hang or
/// unbounded memory; where an encoder exists, what decodes re-encodes to something that decodes the same. A body
/// throws `FuzzViolation` for a broken contract; a crash ends the process, which is why long runs happen in their
/// own executable (`hearth-fuzz`).
public struct FuzzTarget: Sendable {
    public let name: String
    /// What the surface is, for the runner's listing.
    public let summary: String
    public let corpus: [[UInt8]]
    public let dictionary: [[UInt8]]
    public let body: @Sendable ([UInt8]) throws(FuzzViolation) -> Bool

    public init(
        name: String, summary: String, corpus: [[UInt8]], dictionary: [[UInt8]] = [],
        body: @escaping @Sendable ([UInt8]) throws(FuzzViolation) -> Bool
    ) {
        self.name = name
        self.summary = summary
        self.corpus = corpus
        self.dictionary = dictionary
        self.body = body
    }

    /// A target whose corpus and dictionary are texts.
    public init(
        name: String, summary: String, texts: [String], tokens: [String] = [],
        body: @escaping @Sendable ([UInt8]) throws(FuzzViolation) -> Bool
    ) {
        self.init(
            name: name, summary: summary, corpus: texts.map { Array($0.utf8) },
            dictionary: tokens.map { Array($0.utf8) },
            body: body)
    }
}

/// A surface broke its contract on an input without crashing: a round trip that changed a value, an error of the
/// wrong kind, a result that should be impossible.
public struct FuzzViolation: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }

    /// Throws a violation saying `message` unless `condition` holds.
    public static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzViolation) {
        guard condition else { throw FuzzViolation(message()) }
    }
}
