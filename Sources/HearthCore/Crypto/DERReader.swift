/// Reads DER (the distinguished encoding of ASN.1) as far as public keys need: tag, length, value, with lengths
/// checked against what is there. Each element is read whole; nothing is interpreted beyond its tag.
public struct DERReader: Sendable {
    /// One element: its tag byte and its contents.
    public struct Element: Sendable {
        public let tag: UInt8
        public let contents: ArraySlice<UInt8>
    }

    public static let integer: UInt8 = 0x02
    public static let bitString: UInt8 = 0x03
    public static let null: UInt8 = 0x05
    public static let objectIdentifier: UInt8 = 0x06
    public static let sequence: UInt8 = 0x30

    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.offset = bytes.startIndex
    }

    public var isAtEnd: Bool { self.offset == self.bytes.endIndex }

    /// The next element.
    /// - Throws: `DERError` when the bytes end early or a length is not in DER's form.
    public mutating func next() throws(DERError) -> Element {
        guard self.offset < self.bytes.endIndex else { throw DERError("The data ends where an element should be.") }
        let tag = self.bytes[self.offset]
        guard tag & 0x1F != 0x1F else { throw DERError("Multi-byte tags are not used by public keys.") }
        var index = self.offset + 1
        guard index < self.bytes.endIndex else { throw DERError("The data ends inside an element's length.") }
        var length = Int(self.bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), index + count <= self.bytes.endIndex else {
                throw DERError("An element's length is malformed.")
            }
            length = 0
            for byte in self.bytes[index..<index + count] { length = length << 8 | Int(byte) }
            guard length >= 0x80, self.bytes[index] != 0 else { throw DERError("An element's length is not minimal.") }
            index += count
        }
        guard length <= self.bytes.endIndex - index else { throw DERError("An element is longer than the data.") }
        self.offset = index + length
        return Element(tag: tag, contents: self.bytes[index..<index + length])
    }

    /// The next element, which must carry `tag`.
    public mutating func next(_ tag: UInt8) throws(DERError) -> Element {
        let element = try self.next()
        guard element.tag == tag else {
            throw DERError("Expected an element with tag \(tag), found \(element.tag).")
        }
        return element
    }

    /// The contents of the next INTEGER as a non-negative number.
    public mutating func nextUnsigned() throws(DERError) -> BigUnsigned {
        let contents = try self.next(Self.integer).contents
        guard let first = contents.first, first & 0x80 == 0 else {
            throw DERError("Expected a non-negative INTEGER.")
        }
        return BigUnsigned(bigEndian: contents)
    }
}

/// DER that is not what a public key or certificate should hold.
public struct DERError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}
