import HearthCore

/// Decoding `{"t":"d","d":{"r":<id>,"a":"p"|"m","b":{"p":<path>,"d":<data>,"o":<origin>}}}` in one walk over its
/// bytes, members in any order (the JavaScript SDK sends `r, a, b` and `p, d`; Hearth's own client sends keys in
/// sorted order, data before path).
///
/// The walk reads every byte of the message as `JSONReader` would (syntax, escapes, UTF-8, nesting counted from the
/// message's root, nothing after the end). The data is read where it sits, straight into `WriteValue`s, once the
/// action says whether it is one value or an update's members (`WriteRules.DataReader`); the
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

    /// What a connection keeps from one write to the next, so that decoding a write allocates little beyond the
    /// write itself: the decoded bytes of the envelope's path and client id (split and compared from there, never
    /// made `String`s; its member names are told apart by their one letter, `JSONCursor.enterObjectByLetter()`), the
    /// data reader's scratch space (`WriteRules.DataReader`), and the origin's client id, which a client sends with
    /// every write: the same `String`, checked once, is handed on again while the bytes are the same. Space past
    /// `keptBytes` is let go of once the message is decoded, so a huge message leaves nothing behind.
    public struct Scratch {
        /// Most bytes of keys and strings whose space is kept from one message to the next.
        static let keptBytes = 1024

        /// The envelope's strings that are more than a letter: the path and the client id.
        var bytes: [UInt8] = []
        var data = WriteRules.DataReader()
        /// The last origin client id decoded that passed its check (`WriteOrigin`).
        var client: String?

        public init() {}
    }

    /// Decodes `message` when it is such a write; nil otherwise.
    /// - Complexity: O(n + k log k) for a message of n bytes whose largest object has k members.
    public init?(decoding message: String) {
        guard case .write(let write) = Self.decoding(message) else { return nil }
        self = write
    }

    /// What `message` is: a write decoded, not a write, or one the general decoder must decode.
    public static func decoding(_ message: String) -> Decoding {
        var scratch = Scratch()
        return Self.decoding(message, reusing: &scratch)
    }

    /// `decoding(_:)` with scratch space kept from one message to the next (a connection's).
    public static func decoding(_ message: String, reusing scratch: inout Scratch) -> Decoding {
        var text = message
        return text.withUTF8 { Self.decoding(utf8: $0, reusing: &scratch) }
    }

    /// `decoding(_:reusing:)` of a message's UTF-8 bytes, read where they lie (the reactor's, for a frame that
    /// arrived whole): the same answer as for the `String` of those bytes. The bytes must be valid UTF-8.
    public static func decoding(utf8 bytes: UnsafeBufferPointer<UInt8>, reusing scratch: inout Scratch) -> Decoding {
        WriteRules.DataReader.empty(&scratch.bytes, keeping: Scratch.keptBytes)
        // Whatever was read of a write that is declined is let go of now, not kept until the next message, and so is
        // the space a huge path or client id took (a connection could otherwise hold a message's worth uncharged).
        defer {
            scratch.data.clear()
            WriteRules.DataReader.empty(&scratch.bytes, keeping: Scratch.keptBytes)
        }
        var parts = Parts()
        var cursor = JSONCursor(bytes)
        do {
            try parts.readEnvelope(&cursor, &scratch)
            try cursor.expectEnd()
        } catch is Parts.NotAWrite {
            return .notAWrite
        } catch {
            return .declined
        }
        guard let write = Self.write(of: parts, in: bytes, &scratch) else { return .declined }
        return .write(write)
    }

    /// The write the walk's `parts` describe; nil when the general decoder must decode it.
    private static func write(
        of parts: Parts, in bytes: UnsafeBufferPointer<UInt8>, _ scratch: inout Scratch
    ) -> WireWrite? {
        guard parts.hasKind, let id = parts.id, let action = parts.action, let path = parts.path else { return nil }
        var data = parts.data
        if case .skipped(let start)? = data {
            var cursor = JSONCursor(bytes, at: start)
            data = Parts.read(action: action, &cursor, &scratch.data)
        }
        let location = scratch.bytes.withUnsafeBufferPointer { strings in
            WriteRules.validLocation(
                UnsafeBufferPointer(rebasing: strings[path]), below: .root, allowingPriority: action == .put)
        }
        guard let location else { return nil }
        switch data {
        case .value(let reading)?:
            guard let mutation = WriteRules.set(reading, at: location) else { return nil }
            return WireWrite(
                id: id, action: action.text, path: location.path, mutations: [mutation], origin: parts.origin)
        case .members?:
            guard let mutations = scratch.data.updateMutations(at: location.path) else { return nil }
            return WireWrite(
                id: id, action: action.text, path: location.path, mutations: mutations, origin: parts.origin)
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

        /// A put (`p`) or a merge (`m`).
        enum Action {
            case put
            case merge

            /// The action as the request names it.
            var text: String {
                switch self {
                case .put: "p"
                case .merge: "m"
                }
            }
        }

        /// The body's `d`: read for the action (a put's value; a merge's members, held by the scratch's data
        /// reader), or only checked and its place kept when it came before the action.
        enum Data {
            case value(WriteValue.Reading)
            case members
            case skipped(start: Int)
        }

        /// The message's `t` was `"d"`.
        var hasKind = false
        var id: Int64?
        var action: Action?
        /// Where the body's `p` lies in the scratch's bytes.
        var path: Range<Int>?
        var data: Data?
        var origin: WriteOrigin?
        var hasRequest = false
        var hasBody = false
        var hasData = false
        var hasOrigin = false
        var hasHash = false

        /// The nesting a value may use when it sits at `level` of the message (the root object is level 1), so
        /// that reading it alone fails exactly where reading the whole message would.
        static func nesting(atLevel level: Int) -> Int {
            JSONReader.defaultMaximumNesting - (level - 1)
        }

        /// Level 1: `{"t": "d", "d": {…}}`.
        mutating func readEnvelope(_ cursor: inout JSONCursor, _ scratch: inout Scratch) throws {
            var next = try cursor.enterObjectByLetter()
            while let key = next {
                switch key {
                case UInt8(ascii: "t"):
                    guard !self.hasKind else { throw Declined() }
                    guard try Self.letter(&cursor) == UInt8(ascii: "d") else { throw NotAWrite() }
                    self.hasKind = true
                case UInt8(ascii: "d"):
                    guard !self.hasRequest else { throw Declined() }
                    self.hasRequest = true
                    try self.readRequest(&cursor, &scratch)
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 2))
                }
                next = try cursor.nextKeyLetter()
            }
        }

        /// Level 2: `{"r": <id>, "a": <action>, "b": {…}}`.
        private mutating func readRequest(_ cursor: inout JSONCursor, _ scratch: inout Scratch) throws {
            var next = try cursor.enterObjectByLetter()
            while let key = next {
                switch key {
                case UInt8(ascii: "r"):
                    guard self.id == nil, let id = try cursor.readInteger() else { throw Declined() }
                    self.id = id
                case UInt8(ascii: "a"):
                    guard self.action == nil else { throw Declined() }
                    switch try Self.letter(&cursor) {
                    case UInt8(ascii: "p"): self.action = .put
                    case UInt8(ascii: "m"): self.action = .merge
                    default: throw NotAWrite()
                    }
                case UInt8(ascii: "b"):
                    guard !self.hasBody else { throw Declined() }
                    self.hasBody = true
                    try self.readBody(&cursor, &scratch)
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 3))
                }
                next = try cursor.nextKeyLetter()
            }
        }

        /// Level 3: `{"p": <path>, "d": <data>, "o": <origin>}`; a hash `h` other than null is a compare-and-set,
        /// which the general decoder takes.
        private mutating func readBody(_ cursor: inout JSONCursor, _ scratch: inout Scratch) throws {
            var next = try cursor.enterObjectByLetter()
            while let key = next {
                switch key {
                case UInt8(ascii: "p"):
                    guard self.path == nil, let path = try cursor.readString(appendingTo: &scratch.bytes) else {
                        throw Declined()
                    }
                    self.path = path
                case UInt8(ascii: "d"):
                    guard !self.hasData else { throw Declined() }
                    self.hasData = true
                    if let action = self.action {
                        guard let data = Self.read(action: action, &cursor, &scratch.data) else { throw Declined() }
                        self.data = data
                    } else {
                        self.data = .skipped(start: cursor.position)
                        try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 4))
                    }
                case UInt8(ascii: "o"):
                    guard !self.hasOrigin else { throw Declined() }
                    self.hasOrigin = true
                    self.origin = try Self.origin(&cursor, &scratch)
                case UInt8(ascii: "h"):
                    guard !self.hasHash else { throw Declined() }
                    guard try Self.json(&cursor, atLevel: 4) == .null else { throw NotAWrite() }
                    self.hasHash = true
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 4))
                }
                next = try cursor.nextKeyLetter()
            }
        }

        /// The body's `d` (at level 4) read for `action`: nil for data the rules' readers decline.
        static func read(action: Action, _ cursor: inout JSONCursor, _ reader: inout WriteRules.DataReader) -> Data? {
            let nesting = Self.nesting(atLevel: 4)
            switch action {
            case .put: return reader.read(&cursor, maximumNesting: nesting).map(Data.value)
            case .merge: return reader.readMembers(&cursor, maximumNesting: nesting) ? .members : nil
            }
        }

        /// Level 4: the body's `o`, `null` or `{"c": <client>, "s": <sequence>, "a": <settled below>}`, read as
        /// `WriteOrigin(wire:)` reads it without gathering its members in a dictionary first.
        private static func origin(_ cursor: inout JSONCursor, _ scratch: inout Scratch) throws -> WriteOrigin? {
            guard cursor.peek() == UInt8(ascii: "{") else {
                guard try Self.json(&cursor, atLevel: 4) == .null else { throw Declined() }
                return nil
            }
            var (client, sequence, settled): (Range<Int>?, Int64?, Int64?) = (nil, nil, nil)
            var next = try cursor.enterObjectByLetter()
            while let key = next {
                switch key {
                case UInt8(ascii: "c"):
                    guard client == nil, let text = try cursor.readString(appendingTo: &scratch.bytes) else {
                        throw Declined()
                    }
                    client = text
                case UInt8(ascii: "s"):
                    guard sequence == nil, let value = try cursor.readInteger() else {
                        throw Declined()
                    }
                    sequence = value
                case UInt8(ascii: "a"):
                    guard settled == nil, let value = try cursor.readInteger() else {
                        throw Declined()
                    }
                    settled = value
                default:
                    try cursor.skipValue(maximumNesting: Self.nesting(atLevel: 5))
                }
                next = try cursor.nextKeyLetter()
            }
            guard let client, let sequence, sequence > 0, let settled, settled >= 0 else { throw Declined() }
            // The client id the connection named last passed its check then: only the numbers are checked again.
            if let last = Self.lastClient(client, scratch) {
                return try WriteOrigin(checkedClient: last, sequence: UInt64(sequence), settledBelow: UInt64(settled))
            }
            let origin = try scratch.bytes.withUnsafeBufferPointer { strings throws(WireProtocolError) in
                try WriteOrigin(
                    client: String(decoding: UnsafeBufferPointer(rebasing: strings[client]), as: UTF8.self),
                    sequence: UInt64(sequence), settledBelow: UInt64(settled))
            }
            scratch.client = origin.client
            return origin
        }

        /// The client id the connection named last (`Scratch.client`) when the bytes at `range` of the scratch's
        /// bytes are its bytes.
        private static func lastClient(_ range: Range<Int>, _ scratch: Scratch) -> String? {
            guard let last = scratch.client else { return nil }
            let isSame = scratch.bytes.withUnsafeBufferPointer { strings in
                last.utf8.withContiguousStorageIfAvailable {
                    Key.bytesEqual($0, UnsafeBufferPointer(rebasing: strings[range]))
                }
            }
            return isSame == true ? last : nil
        }

        /// A member's value as a `JSONValue` (small protocol values).
        private static func json(_ cursor: inout JSONCursor, atLevel level: Int) throws -> JSONValue {
            try cursor.readValue(maximumNesting: Self.nesting(atLevel: level))
        }

        /// A member's value that must be a string, told apart by its letter (every value of `t` and `a` that makes a
        /// write is one letter; 0 for any other string).
        private static func letter(_ cursor: inout JSONCursor) throws -> UInt8 {
            guard let letter = try cursor.readLetter() else { throw Declined() }
            return letter
        }
    }
}
