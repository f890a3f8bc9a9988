/// What `JSONReader` calls as it reads a document, so one parser can build any representation without an
/// intermediate document: `JSONValueBuilder` builds `JSONValue`, `WriteValue`'s builder builds `Node`s directly.
///
/// The reader walks the document without recursion and calls, for every value, exactly one of:
/// - `makeNull`, `makeBool`, `makeInt`, `makeDouble`, `makeString` for a scalar;
/// - `beginObject`, then per member `beginMember(key)` before its value and `endMember(value)` after it, then
///   `endObject`;
/// - `beginArray`, then per element `beginElement` before it and `endMember(value)` after it, then `endArray`.
///
/// Rules for implementers:
/// - A value's `make…`/`begin…` call always comes right after the `beginMember`/`beginElement` that announced it
///   (or first, for the document's root), so a builder may keep "what the next value is for" in its own state.
/// - The reader never calls the builder again after the builder throws, nor after it throws a syntax error.
/// - Numbers arrive finite; integers without fraction or exponent that fit `Int64` arrive through `makeInt`.
/// - Strings and keys arrive as valid Unicode with every escape decoded; duplicate keys arrive as written, and the
///   builder decides which one wins.
public protocol JSONBuilder {
    /// What a finished value turns into.
    associatedtype Value
    /// An object or array under construction.
    associatedtype Container
    /// What the builder throws; syntax errors found by the reader are converted with `failure(_:)`.
    associatedtype Failure: Error

    /// Converts a syntax error from the reader into this builder's error type.
    static func failure(_ syntaxError: JSONError) -> Failure

    mutating func makeNull() throws(Failure) -> Value
    mutating func makeBool(_ value: Bool) throws(Failure) -> Value
    mutating func makeInt(_ value: Int64) throws(Failure) -> Value
    mutating func makeDouble(_ value: Double) throws(Failure) -> Value
    mutating func makeString(_ value: String) throws(Failure) -> Value

    mutating func beginObject() throws(Failure) -> Container
    mutating func beginArray() throws(Failure) -> Container
    /// Announces the member named `key`; its value follows.
    mutating func beginMember(_ key: String, in container: inout Container) throws(Failure)
    /// Announces the next array element; its value follows.
    mutating func beginElement(in container: inout Container) throws(Failure)
    /// Hands over the value of the member or element announced last.
    mutating func endMember(_ value: Value, in container: inout Container) throws(Failure)
    mutating func endObject(_ container: Container) throws(Failure) -> Value
    mutating func endArray(_ container: Container) throws(Failure) -> Value
}
