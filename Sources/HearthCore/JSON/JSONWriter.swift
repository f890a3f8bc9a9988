/// Serialises JSON into a reusable byte buffer, handing it to a `JSONOutput` in chunks.
///
/// Output rules (shared by `JSONValue` and `Node`):
/// - strings are raw UTF-8 except `"`, `\`, control characters (`\n`, `\t`, `\b`, `\f`, `\r`, else `\u00XX`) and
///   U+2028/U+2029 (`\u2028`/`\u2029`, so the output is also valid JavaScript);
/// - integers are exact; a double with an integral value and magnitude below 2^53 prints as an integer (`1.0` → `1`),
///   other doubles in their shortest round-trip form; non-finite doubles (never stored in a tree) print as `null`;
/// - the pretty form indents by two spaces and writes `"key": value`.
///
/// A writer keeps its buffer's capacity between documents, so reusing one writer avoids reallocations.
public struct JSONWriter: Sendable {
    /// Bytes written but not yet handed to an output.
    var buffer: [UInt8] = []
    /// Whether to indent.
    public var isPretty: Bool
    /// The buffer size at which the writer hands its bytes to the output.
    public var chunkSize: Int
    var indentLevel = 0

    /// - Parameters:
    ///   - pretty: indent with two spaces and put a space after each `:`.
    ///   - chunkSize: how many bytes to gather before handing them to the output (at least 1).
    public init(pretty: Bool = false, chunkSize: Int = 64 * 1024) {
        self.isPretty = pretty
        self.chunkSize = max(1, chunkSize)
    }

    /// Hands everything buffered to `output` and empties the buffer, keeping its capacity.
    public mutating func flush(to output: inout some JSONOutput) {
        guard !self.buffer.isEmpty else { return }
        self.buffer.withUnsafeBytes { output.write($0) }
        self.buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes once the buffer has reached `chunkSize`; called between values.
    @inline(__always)
    mutating func flushIfFull(to output: inout some JSONOutput) {
        if self.buffer.count >= self.chunkSize { self.flush(to: &output) }
    }

    /// Runs `body` with `output` itself as the buffer, so writing into an array copies nothing.
    mutating func writingDirectly(into output: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        let savedChunkSize = self.chunkSize
        swap(&self.buffer, &output)
        self.chunkSize = Int.max
        body(&self)
        self.chunkSize = savedChunkSize
        swap(&self.buffer, &output)
    }

    // MARK: Structure

    mutating func writeByte(_ byte: UInt8) {
        self.buffer.append(byte)
    }

    mutating func writeASCII(_ text: StaticString) {
        self.buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Opens an object or array.
    mutating func open(_ bracket: UInt8) {
        self.buffer.append(bracket)
        self.indentLevel += 1
    }

    /// Writes what goes before a member or element: a comma unless it is the first, then a pretty line break.
    mutating func separate(isFirst: Bool) {
        if !isFirst { self.buffer.append(UInt8(ascii: ",")) }
        if self.isPretty { self.newline() }
    }

    /// Writes `"key":` (pretty: `"key": `).
    mutating func writeKey(_ key: String) {
        self.writeString(key)
        self.buffer.append(UInt8(ascii: ":"))
        if self.isPretty { self.buffer.append(UInt8(ascii: " ")) }
    }

    /// Closes an object or array; `isEmpty` keeps `{}` and `[]` on one line.
    mutating func close(_ bracket: UInt8, isEmpty: Bool) {
        self.indentLevel -= 1
        if self.isPretty && !isEmpty { self.newline() }
        self.buffer.append(bracket)
    }

    private mutating func newline() {
        self.buffer.append(0x0A)
        self.buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * self.indentLevel))
    }

    // MARK: Scalars

    mutating func writeBool(_ value: Bool) {
        if value { self.writeASCII("true") } else { self.writeASCII("false") }
    }

    /// Writes the decimal digits of `value`.
    mutating func writeInt(_ value: Int64) {
        Self.appendDecimal(value, to: &self.buffer)
    }

    /// Appends the decimal digits of `value` (a `-` first when it is negative) to `bytes`, as the writer writes an
    /// integer: for encoders that write an integer's text into bytes of their own (a log record's values).
    public static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        let count = Self.decimalCount(of: value)
        BinaryWriter.append(count: count, to: &bytes) { Self.writeDecimal(value, count: count, to: &$0) }
    }

    /// How many bytes the decimal text of `value` takes (its `-` included).
    public static func decimalCount(of value: Int64) -> Int {
        var digits = 1
        var scan = value.magnitude
        while scan >= 10 {
            scan /= 10
            digits += 1
        }
        return value < 0 ? digits + 1 : digits
    }

    /// Writes the decimal text of `value`, `count` bytes (`decimalCount(of: value)`), as `appendDecimal` appends it.
    public static func writeDecimal(_ value: Int64, count: Int, to cursor: inout BinaryCursor) {
        cursor.write(count: count) { text in
            var magnitude = value.magnitude
            // The digits from the last one back; a negative value's `-` is left before them.
            for index in stride(from: count - 1, through: value < 0 ? 1 : 0, by: -1) {
                text[index] = UInt8(truncatingIfNeeded: magnitude % 10) + UInt8(ascii: "0")
                magnitude /= 10
            }
            if value < 0 { text[0] = UInt8(ascii: "-") }
        }
    }

    /// Writes a double: integral values below 2^53 as integers, others in shortest round-trip form.
    mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            self.writeASCII("null")
            return
        }
        if value.magnitude < 9_007_199_254_740_992, value.rounded(.towardZero) == value {
            self.writeInt(Int64(value))
            return
        }
        var text = value.description
        text.withUTF8 { self.buffer.append(contentsOf: $0) }
    }

    /// Writes a quoted, escaped string, read where it lies (a string stored contiguously, as a native one is, is not
    /// copied, nor retained, to be read).
    mutating func writeString(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ self.writeQuoted($0) }) != nil { return }
        var text = string
        text.withUTF8 { self.writeQuoted($0) }
    }

    /// Appends `name` as an object member's name, `"name":` (compact form), to `output`, read where it lies: no
    /// `JSONValue` is made of it, and nothing passes through the writer's own buffer.
    public mutating func writeMemberName(_ name: String, to output: inout [UInt8]) {
        self.writingDirectly(into: &output) { writer in
            writer.writeString(name)
            writer.writeByte(UInt8(ascii: ":"))
        }
    }

    /// Writes `bytes`, valid UTF-8, as a quoted, escaped string.
    mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 {
                index += 1
                continue
            }
            if byte == 0xE2 {
                let isSeparator =
                    index + 2 < count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
                guard isSeparator else {
                    index += 1
                    continue
                }
            }
            self.buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): self.writeASCII("\\\"")
            case UInt8(ascii: "\\"): self.writeASCII("\\\\")
            case 0x0A: self.writeASCII("\\n")
            case 0x09: self.writeASCII("\\t")
            case 0x0D: self.writeASCII("\\r")
            case 0x08: self.writeASCII("\\b")
            case 0x0C: self.writeASCII("\\f")
            case 0xE2:
                if bytes[index + 2] == 0xA8 { self.writeASCII("\\u2028") } else { self.writeASCII("\\u2029") }
                index += 2
            default:
                let hex: StaticString = "0123456789abcdef"
                self.writeASCII("\\u00")
                self.buffer.append(hex.utf8Start[Int(byte >> 4)])
                self.buffer.append(hex.utf8Start[Int(byte & 0x0F)])
            }
            index += 1
            runStart = index
        }
        self.buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        self.buffer.append(UInt8(ascii: "\""))
    }
}
