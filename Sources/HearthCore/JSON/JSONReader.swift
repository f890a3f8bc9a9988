/// A strict RFC 8259 parser over UTF-8 bytes that builds whatever its `JSONBuilder` makes.
///
/// It rejects everything the RFC does not allow (trailing commas, comments, `NaN`/`Infinity`, leading zeros,
/// unknown escapes, lone surrogates, raw control characters in strings, ill-formed UTF-8, trailing garbage) and
/// tolerates only a leading byte order mark. Nesting is tracked on an explicit stack, so a hostile `[[[[…` can't
/// overflow the call stack: it fails with `JSONError.Code.nestingTooDeep` once it passes `maximumNesting`.
///
/// Numbers: integers without fraction or exponent that fit `Int64` are exact; every other number is the nearest
/// double and must be finite (`1e400` is an error).
///
/// - Complexity: O(n) in the input's length; memory beyond the builder's output is O(nesting).
public struct JSONReader: Sendable {
    /// The nesting limit used unless a reader is configured otherwise.
    public static let defaultMaximumNesting = 1000

    /// The deepest nesting of arrays and objects accepted; the document's root container is level 1.
    public var maximumNesting: Int

    public init(maximumNesting: Int = JSONReader.defaultMaximumNesting) {
        self.maximumNesting = maximumNesting
    }

    /// Parses `bytes` into `builder`'s representation.
    /// - Throws: `Builder.failure(_:)` of a `JSONError` for syntax, or whatever the builder throws.
    public func parse<Builder: JSONBuilder>(
        _ bytes: [UInt8],
        into builder: inout Builder
    ) throws(Builder.Failure) -> Builder.Value {
        let result: Result<Builder.Value, Builder.Failure> = bytes.withUnsafeBufferPointer { buffer in
            do throws(Builder.Failure) {
                return .success(try self.parse(buffer, into: &builder))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses the bytes in `buffer`, which must stay valid for the duration of the call.
    public func parse<Builder: JSONBuilder>(
        _ buffer: UnsafeBufferPointer<UInt8>,
        into builder: inout Builder
    ) throws(Builder.Failure) -> Builder.Value {
        var scanner = JSONScanner(bytes: buffer)
        let value = try self.readValue(&scanner, into: &builder)
        do { try scanner.expectEnd() } catch { throw Builder.failure(error) }
        return value
    }

    /// The containers `readValue` has open, innermost last, each with whether it is an array.
    typealias OpenContainers<Container> = [(container: Container, isArray: Bool)]

    /// Reads one value starting at `scanner`'s position and leaves the scanner just after it, so a caller that walks
    /// the outer levels of a document itself (`JSONCursor`) can hand each member to the builder that fits it.
    func readValue<Builder: JSONBuilder>(
        _ scanner: inout JSONScanner,
        into builder: inout Builder
    ) throws(Builder.Failure) -> Builder.Value {
        var stack: OpenContainers<Builder.Container> = []
        return try self.readValue(&scanner, into: &builder, stack: &stack)
    }

    /// `readValue(_:into:)` keeping its open containers in `stack`, which is emptied first and lent back with its
    /// capacity: a reader of many values in a row (the members of an update) allocates the stack once, not once per
    /// value that is an object.
    func readValue<Builder: JSONBuilder>(
        _ scanner: inout JSONScanner,
        into builder: inout Builder,
        stack: inout OpenContainers<Builder.Container>
    ) throws(Builder.Failure) -> Builder.Value {
        stack.removeAll(keepingCapacity: true)
        var value: Builder.Value
        readValue: while true {
            let token: JSONScanner.Token
            do { token = try scanner.readValueToken() } catch { throw Builder.failure(error) }
            switch token {
            case .null: value = try builder.makeNull()
            case .bool(let flag): value = try builder.makeBool(flag)
            case .int(let number): value = try builder.makeInt(number)
            case .double(let number): value = try builder.makeDouble(number)
            case .string(let text): value = try builder.makeString(text)
            case .beginObject:
                try self.checkNesting(stack.count, scanner, Builder.self)
                var container = try builder.beginObject()
                let firstKey: String?
                do { firstKey = try scanner.readFirstKey() } catch { throw Builder.failure(error) }
                guard let firstKey else {
                    value = try builder.endObject(container)
                    break
                }
                try builder.beginMember(firstKey, in: &container)
                // Moved onto the stack: a copy retains every reference the container holds, then releases them.
                stack.append((consume container, false))
                continue readValue
            case .beginArray:
                try self.checkNesting(stack.count, scanner, Builder.self)
                var container = try builder.beginArray()
                if scanner.consumeArrayEnd() {
                    value = try builder.endArray(container)
                    break
                }
                try builder.beginElement(in: &container)
                stack.append((consume container, true))
                continue readValue
            }
            while let top = stack.indices.last {
                try builder.endMember(value, in: &stack[top].container)
                let inArray = stack[top].isArray
                let hasMore: Bool
                do { hasMore = try scanner.readSeparator(inArray: inArray) } catch { throw Builder.failure(error) }
                if hasMore {
                    if inArray {
                        try builder.beginElement(in: &stack[top].container)
                    } else {
                        let key: String
                        do { key = try scanner.readKey() } catch { throw Builder.failure(error) }
                        try builder.beginMember(key, in: &stack[top].container)
                    }
                    continue readValue
                }
                let container = stack.removeLast().container
                value = inArray ? try builder.endArray(container) : try builder.endObject(container)
            }
            break
        }
        return value
    }

    private func checkNesting<Builder: JSONBuilder>(
        _ depth: Int,
        _ scanner: JSONScanner,
        _: Builder.Type
    ) throws(Builder.Failure) {
        guard depth < self.maximumNesting else {
            let offset = scanner.position - 1
            throw Builder.failure(
                JSONError(
                    .nestingTooDeep,
                    "JSON nested more than \(self.maximumNesting) levels deep at byte \(offset); flatten the data.",
                    offset: offset
                )
            )
        }
    }

    /// Parses a whole document into a `JSONValue` with the default nesting limit.
    public static func parseValue(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var builder = JSONValueBuilder()
        return try JSONReader().parse(bytes, into: &builder)
    }

    /// Parses the UTF-8 of `string` into a `JSONValue`.
    public static func parseValue(_ string: String) throws(JSONError) -> JSONValue {
        var builder = JSONValueBuilder()
        var text = string
        let result: Result<JSONValue, JSONError> = text.withUTF8 { buffer in
            do throws(JSONError) {
                return .success(try JSONReader().parse(buffer, into: &builder))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
