/// Writes little-endian fields into bytes set aside for them ahead (`BinaryWriter.append(count:to:_:)`), the same
/// bytes `BinaryWriter`'s appends write: a field is a store, where appending it to an array checked the array's
/// uniqueness and capacity and called `memmove` for every field (a star's log record has some ninety).
///
/// Every write is checked against the bytes set aside: writing past them stops the process.
public struct BinaryCursor: ~Copyable {
    @usableFromInline var next: UnsafeMutableRawPointer
    @usableFromInline var remaining: Int

    @inlinable
    init(_ bytes: UnsafeMutableRawBufferPointer) {
        // An empty buffer may have no address; nothing can be written into it anyway.
        self.next = bytes.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1).unsafelyUnwrapped
        self.remaining = bytes.count
    }

    /// Whether every byte set aside has been written.
    @inlinable
    public var isAtEnd: Bool { self.remaining == 0 }

    /// Writes `value` in little-endian order.
    @inlinable
    public mutating func write<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        precondition(self.remaining >= size, "BinaryCursor: a field written past the bytes set aside")
        self.next.storeBytes(of: value.littleEndian, as: T.self)
        self.next += size
        self.remaining -= size
    }

    /// Writes `bytes` as they are.
    @inlinable
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        precondition(self.remaining >= bytes.count, "BinaryCursor: bytes written past the bytes set aside")
        guard let source = bytes.baseAddress else { return }
        self.next.copyMemory(from: source, byteCount: bytes.count)
        self.next += bytes.count
        self.remaining -= bytes.count
    }

    /// Writes `count` bytes, which `body` fills in (all of them, in any order) where the cursor stands.
    @inlinable
    public mutating func write(count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) {
        precondition(count >= 0 && self.remaining >= count, "BinaryCursor: bytes written past the bytes set aside")
        body(UnsafeMutableRawBufferPointer(start: self.next, count: count))
        self.next += count
        self.remaining -= count
    }

    /// Writes `text`'s UTF-8, with no length: in one copy when the string holds its bytes in one piece (a native
    /// string always does), else byte by byte.
    @inlinable
    public mutating func writeUTF8(of text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { self.write(UnsafeRawBufferPointer($0)) }
        if written == nil {
            for byte in text.utf8 { self.write(byte) }
        }
    }
}

extension BinaryCursor {
    /// Writes `path` slashless, with no length: `BinaryWriter.length(of: path)` bytes.
    public mutating func writePath(_ path: Path) {
        // By index, and each key's bytes in one piece (every mutation of a log record passes here).
        for index in path.keys.indices {
            if index > 0 { self.write(UInt8(ascii: "/")) }
            self.writeUTF8(of: path.keys[index].string)
        }
    }
}
