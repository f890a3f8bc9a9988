/// Turning a client's JSON into a write, under Firebase's write rules.
///
/// The rules (reference §4.4, §5, §6):
/// - arrays become objects keyed `"0"`, `"1"`, …; `null` elements, `null`, `{}` and all-null objects are absent;
/// - `.priority` sets the node's priority: a number, a string, `null` or a `{".sv": …}` placeholder;
/// - `.value` gives the node's value and may sit beside `.priority` only;
/// - `{".sv": "timestamp"}` and `{".sv": {"increment": <number>}}` become placeholders (beside `.priority` only),
///   left empty in `node` and listed in `placeholders`;
/// - any other key starting with `.`, or any key `Key(validating:)` rejects, is an error naming the key;
/// - numbers are finite and strings at most 10 MiB of UTF-8;
/// - no node may sit deeper than `Path.maximumDepth` (32) keys below the root, counting `baseDepth` (the write
///   path's depth) plus the child keys inside the value. `.priority`, `.value` and `.sv` don't count: they describe
///   the node they sit in.
///
/// Errors: a `JSONError` (with byte offset) when the bytes are not JSON, a `PathError` when the data breaks a rule.
/// Both carry a `message` meant for the client, so a server can answer `{"error": "<message>"}` with either.
extension WriteValue {
    /// Parses a write's JSON body straight into a tree.
    /// - Parameters:
    ///   - bytes: the UTF-8 JSON body.
    ///   - baseDepth: how many keys deep the write's path is (0 for the root).
    /// - Throws: `JSONError` for syntax, `PathError` for data rules.
    /// - Complexity: O(n + k log k) for n bytes, where k is the largest object whose keys arrive out of order.
    public static func parseWrite(_ bytes: [UInt8], depth baseDepth: Int) throws -> WriteValue {
        var builder = WriteValueBuilder(baseDepth: baseDepth)
        let fragment = try JSONReader().parse(bytes, into: &builder)
        return WriteValue(fragment)
    }

    /// A value read from inside a larger document (a realtime message's data, a member of an update) before the
    /// path it will be written at is known: the tree, and what the write rules still need to check once it is.
    public struct Reading: Sendable {
        /// The value, under every data rule except the depth limit.
        public var value: WriteValue
        /// How many keys below the value its deepest node sits (0 for a leaf or an empty object): the value fits
        /// at a path of `Path.maximumDepth - depth` keys or fewer.
        public var depth: Int
    }

    /// Reads the value at `cursor` straight into a tree and moves the cursor past it.
    /// - Parameter maximumNesting: the nesting the value may use, counted from the value (see `JSONCursor`).
    /// - Throws: `JSONError` for syntax, `PathError` for data rules (and for nodes more than `Path.maximumDepth`
    ///   keys below the value).
    /// - Complexity: O(n + k log k) as `parseWrite(_:depth:)`.
    public static func read(_ cursor: inout JSONCursor, maximumNesting: Int) throws -> Reading {
        var reader = Reader()
        return try reader.read(&cursor, maximumNesting: maximumNesting)
    }

    /// Applies the write rules to a value that arrived inside a protocol message.
    /// - Throws: `PathError` for data rules, `JSONError` when the value nests more than 1000 levels.
    public init(json: JSONValue, depth baseDepth: Int) throws {
        var builder = WriteValueBuilder(baseDepth: baseDepth)
        let fragment = try json.build(into: &builder)
        self.init(fragment)
    }

    init(_ fragment: WriteValueBuilder.Fragment) {
        let pending = fragment.pending ?? WriteValueBuilder.Pending()
        self.init(node: fragment.node, placeholders: pending.placeholders, pendingPriorities: pending.priorities)
    }
}
