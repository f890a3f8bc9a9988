/// A reading position in one JSON document, for readers that walk a document's outer objects themselves and hand
/// each member's value to the builder that fits it: a realtime write message's envelope is walked here while its
/// data is built straight into a `WriteValue`, with no `JSONValue` of the whole message in between.
///
/// Every byte it passes is checked exactly as `JSONReader` checks it (a value read through the cursor is read by
/// `JSONReader` itself), so a document walked to its end with `expectEnd()` is one `JSONReader` accepts. Nesting
/// is the caller's to count: a value read at the document's third level gets a `maximumNesting` three below the
/// document's.
public struct JSONCursor {
    var scanner: JSONScanner

    /// A cursor at `position` of `bytes` (a UTF-8 byte order mark is skipped at position 0), which must stay valid
    /// while the cursor is used.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        self.scanner = JSONScanner(bytes: bytes)
        if position > 0 { self.scanner.position = min(position, bytes.count) }
    }

    /// The offset of the next byte to read.
    public var position: Int { self.scanner.position }

    /// The first byte of the next value, past whitespace, without reading it; nil at the end.
    public mutating func peek() -> UInt8? {
        self.scanner.skipWhitespace()
        guard self.scanner.position < self.scanner.bytes.count else { return nil }
        return self.scanner.bytes[self.scanner.position]
    }

    /// Reads the `{` that opens an object and its first key (with the `:` after it); nil for `{}`.
    /// - Throws: `JSONError` when the next value is not an object or its first member is broken.
    public mutating func enterObject() throws(JSONError) -> String? {
        try self.expectObject()
        return try self.scanner.readFirstKey()
    }

    /// `enterObject()` appending the first key's decoded bytes to `buffer` instead of making a `String`: a reader
    /// that only compares its keys, or splits them as paths, allocates nothing for them. Returns where the bytes lie
    /// in `buffer`; nil for `{}`.
    /// - Throws: `JSONError` as `enterObject()`.
    public mutating func enterObject(appendingKeyTo buffer: inout [UInt8]) throws(JSONError) -> Range<Int>? {
        try self.expectObject()
        return try self.scanner.readFirstKey(appendingTo: &buffer)
    }

    /// `enterObject()` for an object whose members are told apart by one letter (a protocol envelope's): the first
    /// key's only byte once decoded, 0 for a key of any other length; nil for `{}`. Nothing is allocated.
    /// - Throws: `JSONError` as `enterObject()`.
    public mutating func enterObjectByLetter() throws(JSONError) -> UInt8? {
        self.scanner.skipWhitespace()
        // `{"t":` written as every client writes it, read at once; anything else step by step.
        if let letter = self.scanner.consumeKeyLetter(after: UInt8(ascii: "{")) { return letter }
        try self.expectObject()
        return try self.scanner.readFirstKeyLetter()
    }

    /// Reads the `{` that opens an object.
    private mutating func expectObject() throws(JSONError) {
        self.scanner.skipWhitespace()
        guard self.scanner.position < self.scanner.bytes.count else {
            throw self.scanner.unexpectedEnd(expecting: "an object")
        }
        guard self.scanner.bytes[self.scanner.position] == UInt8(ascii: "{") else {
            throw self.scanner.unexpectedCharacter(expecting: "an object")
        }
        self.scanner.position += 1
    }

    /// After a member's value: reads the `,` and the next key, or the object's `}` (then nil).
    /// - Throws: `JSONError` for anything else.
    public mutating func nextKey() throws(JSONError) -> String? {
        guard try self.scanner.readSeparator(inArray: false) else { return nil }
        return try self.scanner.readKey()
    }

    /// `nextKey()` appending the key's decoded bytes to `buffer` (see `enterObject(appendingKeyTo:)`).
    /// - Throws: `JSONError` as `nextKey()`.
    public mutating func nextKey(appendingTo buffer: inout [UInt8]) throws(JSONError) -> Range<Int>? {
        guard try self.scanner.readSeparator(inArray: false) else { return nil }
        return try self.scanner.readKey(appendingTo: &buffer)
    }

    /// `nextKey()` telling the key by its letter (see `enterObjectByLetter()`).
    /// - Throws: `JSONError` as `nextKey()`.
    public mutating func nextKeyLetter() throws(JSONError) -> UInt8? {
        // `,"d":` written as every client writes it, read at once; anything else step by step.
        if let letter = self.scanner.consumeKeyLetter(after: UInt8(ascii: ",")) { return letter }
        guard try self.scanner.readSeparator(inArray: false) else { return nil }
        return try self.scanner.readKeyLetter()
    }

    /// Reads the string at the cursor, checked as `readValue(maximumNesting:)` checks it, and tells it by its letter:
    /// its only byte once decoded, 0 for a string of any other length. Nil, with nothing read, when the next value
    /// is not a string.
    /// - Throws: `JSONError` for a broken string.
    public mutating func readLetter() throws(JSONError) -> UInt8? {
        guard self.peek() == UInt8(ascii: "\"") else { return nil }
        if let letter = self.scanner.consumeStringLetter() { return letter }
        self.scanner.position += 1
        return try self.scanner.readStringLetter()
    }

    /// Reads the string at the cursor, checked as `readValue(maximumNesting:)` checks it, and appends its decoded
    /// bytes to `buffer`; returns where they lie in it. Nil, with nothing read, when the next value is not a
    /// string.
    /// - Throws: `JSONError` for a broken string.
    public mutating func readString(appendingTo buffer: inout [UInt8]) throws(JSONError) -> Range<Int>? {
        guard self.peek() == UInt8(ascii: "\"") else { return nil }
        self.scanner.position += 1
        return try self.scanner.readStringBody(appendingTo: &buffer)
    }

    /// Reads the value at the cursor into `builder` and moves past it. Internal so that every builder it runs is
    /// one of this module's, which the compiler specialises: called from another module, the generic reader runs
    /// unspecialised, looking up type metadata at every step.
    /// - Throws: what `builder` throws, or its conversion of the `JSONError` for broken JSON or nesting deeper than
    ///   `maximumNesting` (counted from this value, which is level 1 when it is a container).
    mutating func read<Builder: JSONBuilder>(
        into builder: inout Builder, maximumNesting: Int
    ) throws(Builder.Failure) -> Builder.Value {
        try JSONReader(maximumNesting: maximumNesting).readValue(&self.scanner, into: &builder)
    }

    /// `read(into:maximumNesting:)` keeping the open containers in `stack` (see `JSONReader.readValue`), for a
    /// caller that reads many values in a row.
    mutating func read<Builder: JSONBuilder>(
        into builder: inout Builder, maximumNesting: Int, stack: inout JSONReader.OpenContainers<Builder.Container>
    ) throws(Builder.Failure) -> Builder.Value {
        try JSONReader(maximumNesting: maximumNesting).readValue(&self.scanner, into: &builder, stack: &stack)
    }

    /// Reads the value at the cursor as a `JSONValue` (small protocol values) and moves past it.
    /// - Throws: `JSONError` for broken JSON or nesting deeper than `maximumNesting`.
    public mutating func readValue(maximumNesting: Int) throws(JSONError) -> JSONValue {
        var builder = JSONValueBuilder()
        return try self.read(into: &builder, maximumNesting: maximumNesting)
    }

    /// Reads the number at the cursor as `readValue(maximumNesting:)` would and moves past it: its `intValue` (a whole
    /// number that fits `Int64`), or nil for a number that is not one; nil, reading nothing, when the next value is
    /// not a number. A protocol's ids and counters, read without a `JSONValue` and the generic reader.
    /// - Throws: `JSONError` for a broken number.
    public mutating func readInteger() throws(JSONError) -> Int64? {
        switch self.peek() {
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?: break
        default: return nil
        }
        switch try self.scanner.readNumber() {
        case .int(let number): return number
        case .double(let number): return JSONValue.double(number).intValue
        default: return nil
        }
    }

    /// Checks the value at the cursor as `read(into:maximumNesting:)` would and moves past it, building nothing.
    /// - Throws: `JSONError` for broken JSON or nesting deeper than `maximumNesting`.
    public mutating func skipValue(maximumNesting: Int) throws(JSONError) {
        var skipper = Skipper()
        try self.read(into: &skipper, maximumNesting: maximumNesting)
    }

    /// Checks that only whitespace is left.
    /// - Throws: `JSONError.Code.trailingCharacters` otherwise.
    public mutating func expectEnd() throws(JSONError) {
        try self.scanner.expectEnd()
    }

    /// A builder that builds nothing, for values that are only checked.
    private struct Skipper: JSONBuilder {
        typealias Value = Void
        typealias Container = Void
        typealias Failure = JSONError
        static func failure(_ syntaxError: JSONError) -> JSONError { syntaxError }
        mutating func makeNull() {}
        mutating func makeBool(_ value: Bool) {}
        mutating func makeInt(_ value: Int64) {}
        mutating func makeDouble(_ value: Double) {}
        mutating func makeString(_ value: String) {}
        mutating func beginObject() {}
        mutating func beginArray() {}
        mutating func beginMember(_ key: String, in container: inout Void) {}
        mutating func beginElement(in container: inout Void) {}
        mutating func endMember(_ value: Void, in container: inout Void) {}
        mutating func endObject(_ container: Void) {}
        mutating func endArray(_ container: Void) {}
    }
}
