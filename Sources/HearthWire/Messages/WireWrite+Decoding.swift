import HearthCore

/// Decoding `{"t":"d","d":{"r":<id>,"a":"p"|"m","b":{"p":<path>,"d":<data>,"o":<origin>}}}` in one walk over its
/// bytes, members in any order (the JavaScript SDK sends `r, a, b` and `p, d`; Hearth's own client sends keys in
/// sorted order, data before path).
///
/// The walk reads every byte of the message as `JSONReader` would (syntax, escapes, UTF-8, nesting counted from the
/// message's root, nothing after the end). The data is read where it sits, straight into `WriteValue`s, once the
/// action says whether it is one value or an update's members (`WriteRules.read`, `WriteRules.readMembers`); the
/// path may come after it, since only the depth limit needs the path and it is checked when the data is placed. Data
/// that comes before the action is checked on the way and read again from its place at the end.
///
/// It declines (returns nil) where the general decoder would answer differently or with an error: a control
/// message, another action, a compare-and-set hash, a member named twice at any level of the envelope (a `JSONValue`
/// keeps the last), a missing or mistyped member, an origin that does not decode, and whatever the write rules'
/// readers decline.
extension WireWrite {
    /// What a message is to the direct decoder.
    public enum Decoding: Sendable {
        /// A put without a hash or a merge, decoded.
        case write(WireWrite)
        /// A control message, another action, or a compare-and-set: seen as soon as its `t`, `a` or `h` is read,
        /// so the rest of the message is not walked (the general decoder takes it, and answers any error in it).
        case notAWrite
        /// A put or merge (or a message not yet told apart) that is unusual or wrong: the general decoder decodes
        /// it, and words what its rules refuse.
        case declined
    }

    /// Decodes `message` when it is such a write; nil otherwise.
    /// - Complexity: O(n + k log k) for a message of n bytes whose largest object has k members.
    public init?(decoding message: String) {
        guard case .write(let write) = Self.decoding(message) else { return nil }
        self = write
    }

    /// What `message` is: a write decoded, not a write, or one the general decoder must decode.
    public static func decoding(_ message: String) -> Decoding {
        var text = message
        return text.withUTF8 { Self.decode($0) }
    }

    /// Decodes the UTF-8 bytes of a message.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Decoding {
        var parts = Parts()
        var cursor = JSONCursor(bytes)
        do {
            try parts.readEnvelope(&cursor)
            try cursor.expectEnd()
        } catch is Parts.NotAWrite {
            return .notAWrite
        } catch {
            return .declined
        }
        guard let write = Self.write(of: parts, in: bytes) else { return .declined }
        return .write(write)
    }

    /// The write the walk's `parts` describe; nil when the general decoder must decode it.
    private static func write(of parts: Parts, in bytes: UnsafeBufferPointer<UInt8>) -> WireWrite? {
        guard parts.kind == "d", let id = parts.id, let action = parts.action, let text = parts.path else { return nil }
        let origin = parts.origin
        var data = parts.data
        if case .skipped(let start)? = data {
            var cursor = JSONCursor(bytes, at: start)
            data = Parts.read(action: action, &cursor)
        }
        switch data {
        case .value(let reading)?:
            guard let location = try? WriteRules.location(text, allowingPriority: true),
                let mutation = WriteRules.set(reading, at: location)
            else { return nil }
            return WireWrite(id: id, action: action, path: location.path, mutations: [mutation], origin: origin)
        case .members(let members)?:
            guard let base = try? WriteRules.location(text, allowingPriority: false).path,
                let mutations = WriteRules.updateMutations(members, at: base)
            else { return nil }
            return WireWrite(id: id, action: action, path: base, mutations: mutations, origin: origin)
        case .skipped?, nil:
            return nil
        }
    }

    /// What the walk found: the envelope's members, each read at most once.
    private struct Parts {
        /// Why the walk gives up: the general decoder takes the message.
        struct Declined: Error {}
        /// Why the walk stops early: the message is not a put without a hash or a merge.
        struct NotAWrite: Error {}

        /// The body's `d`: read for the action (a put's value, a merge's members), or only checked and its place
        /// kept when it came before the action.
        enum Data {
            case value(WriteValue.Reading)
            case members([WriteRules.ReadMember])
            case skipped(start: Int)
        }

        var kind: String?
        var id: Int64?
        var action: String?
        var path: String?
        var data: Data?
        var origin: WriteOrigin?
        var hasData = false
        var hasRequest = false
        var hasBody = false
        var hasOrigin = false
        var hasHash = false

        /// The nesting a value may use when it sits at `level` of the message (the root object is level 1), so
        /// that reading it alone fails exactly where reading the whole message would.
        static func nesting(atLevel level: Int) -> Int {
            JSONReader.defaultMaximumNesting - (level - 1)
        }

        /// Level 1: `{"t": "d", "d": {…}}`.
        mutating func readEnvelope(_ cursor: inout JSONCursor) throws {
            var next = try cursor.enterObject()
            while let key = next {
                switch key {
                case "t":
                    guard self.kind == nil else { throw Declined() }
                    self.kind = try Self.string(&cursor, atLevel: 2)
                    guard self.kind == "d" else { throw NotAWrite() }
                case "d":
                    guard !self.hasRequest else { throw Declined() }
                    self.hasRequest = true
                    try self.readRequest(&cursor)
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 2))
                }
                next = try cursor.nextKey()
            }
        }

        /// Level 2: `{"r": <id>, "a": <action>, "b": {…}}`.
        private mutating func readRequest(_ cursor: inout JSONCursor) throws {
            var next = try cursor.enterObject()
            while let key = next {
                switch key {
                case "r":
                    guard self.id == nil, let id = try Self.json(&cursor, atLevel: 3).intValue else { throw Declined() }
                    self.id = id
                case "a":
                    guard self.action == nil else { throw Declined() }
                    let action = try Self.string(&cursor, atLevel: 3)
                    guard action == "p" || action == "m" else { throw NotAWrite() }
                    self.action = action
                case "b":
                    guard !self.hasBody else { throw Declined() }
                    self.hasBody = true
                    try self.readBody(&cursor)
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 3))
                }
                next = try cursor.nextKey()
            }
        }

        /// Level 3: `{"p": <path>, "d": <data>, "o": <origin>}`; a hash `h` other than null is a compare-and-set,
        /// which the general decoder takes.
        private mutating func readBody(_ cursor: inout JSONCursor) throws {
            var next = try cursor.enterObject()
            while let key = next {
                switch key {
                case "p":
                    guard self.path == nil else { throw Declined() }
                    self.path = try Self.string(&cursor, atLevel: 4)
                case "d":
                    guard !self.hasData else { throw Declined() }
                    self.hasData = true
                    if let action = self.action {
                        guard let data = Self.read(action: action, &cursor) else { throw Declined() }
                        self.data = data
                    } else {
                        self.data = .skipped(start: cursor.position)
                        try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 4))
                    }
                case "o":
                    guard !self.hasOrigin else { throw Declined() }
                    self.hasOrigin = true
                    self.origin = try Self.origin(&cursor)
                case "h":
                    guard !self.hasHash else { throw Declined() }
                    guard try Self.json(&cursor, atLevel: 4) == .null else { throw NotAWrite() }
                    self.hasHash = true
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 4))
                }
                next = try cursor.nextKey()
            }
        }

        /// The body's `d` (at level 4) read for `action`: nil for another action, or data the rules' readers
        /// decline.
        static func read(action: String, _ cursor: inout JSONCursor) -> Data? {
            let nesting = Self.nesting(atLevel: 4)
            switch action {
            case "p": return WriteRules.read(&cursor, maximumNesting: nesting).map(Data.value)
            case "m": return WriteRules.readMembers(&cursor, maximumNesting: nesting).map(Data.members)
            default: return nil
            }
        }

        /// Level 4: the body's `o`, `null` or `{"c": <client>, "s": <sequence>, "a": <settled below>}`, read as
        /// `WriteOrigin(wire:)` reads it without gathering its members in a dictionary first.
        private static func origin(_ cursor: inout JSONCursor) throws -> WriteOrigin? {
            guard cursor.peek() == UInt8(ascii: "{") else {
                guard try Self.json(&cursor, atLevel: 4) == .null else { throw Declined() }
                return nil
            }
            var (client, sequence, settled): (String?, Int64?, Int64?) = (nil, nil, nil)
            var next = try cursor.enterObject()
            while let key = next {
                switch key {
                case "c":
                    guard client == nil else { throw Declined() }
                    client = try Self.string(&cursor, atLevel: 5)
                case "s":
                    guard sequence == nil, let value = try Self.json(&cursor, atLevel: 5).intValue else {
                        throw Declined()
                    }
                    sequence = value
                case "a":
                    guard settled == nil, let value = try Self.json(&cursor, atLevel: 5).intValue else {
                        throw Declined()
                    }
                    settled = value
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 5))
                }
                next = try cursor.nextKey()
            }
            guard let client, let sequence, sequence > 0, let settled, settled >= 0 else { throw Declined() }
            return try WriteOrigin(client: client, sequence: UInt64(sequence), settledBelow: UInt64(settled))
        }

        /// A member's value as a `JSONValue` (small protocol values).
        private static func json(_ cursor: inout JSONCursor, atLevel level: Int) throws -> JSONValue {
            try cursor.readValue(maximumNesting: Self.nesting(atLevel: level))
        }

        /// A member's value that must be a string.
        private static func string(_ cursor: inout JSONCursor, atLevel level: Int) throws -> String {
            guard let text = try Self.json(&cursor, atLevel: level).stringValue else { throw Declined() }
            return text
        }
    }
}
