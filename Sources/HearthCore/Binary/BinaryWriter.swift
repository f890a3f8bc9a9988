/// Appends little-endian fields to a byte array: the one encoder under every binary format Hearth writes (log
/// entries, peer messages, Raft and membership messages).
///
/// The integer methods are `@inlinable` so that every caller gets them specialised for its integer type: left
/// generic across the module boundary, each field paid for a witness-table call and a closure (a tenth of the write
/// loop's log record encoding).
public enum BinaryWriter {
    /// Appends `value` in little-endian order.
    @inlinable
    public static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites the bytes at `offset` with `value`, as `append` wrote them: fills in a length written as a
    /// placeholder before what it measures, so that both go into one buffer in one pass.
    @inlinable
    public static func write<T: FixedWidthInteger>(_ value: T, at offset: Int, in bytes: inout [UInt8]) {
        precondition(offset >= 0 && offset <= bytes.count - MemoryLayout<T>.size, "a field written past the end")
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self) }
    }

    /// A string as `u16 length` + UTF-8; callers keep such strings under 64 KiB (paths, names, namespaces).
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        Self.append(UInt16(truncatingIfNeeded: text.utf8.count), to: &bytes)
        Self.appendUTF8(of: text, to: &bytes)
    }

    /// A byte string as `u32 length` + the bytes.
    public static func appendBytes(_ data: some Collection<UInt8>, to bytes: inout [UInt8]) {
        Self.append(UInt32(truncatingIfNeeded: data.count), to: &bytes)
        bytes.append(contentsOf: data)
    }

    /// Appends exactly `count` bytes, which `write` writes through a cursor (it must write them all): fields of a
    /// size known ahead go into the array's spare room in one piece, the array's uniqueness and capacity checked
    /// once rather than per field.
    @inlinable
    public static func append(count: Int, to bytes: inout [UInt8], _ write: (inout BinaryCursor) -> Void) {
        bytes.append(addingCapacity: count) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                let room = UnsafeMutableBufferPointer(rebasing: buffer[initialized...])
                var cursor = BinaryCursor(UnsafeMutableRawBufferPointer(room))
                write(&cursor)
                precondition(cursor.isAtEnd, "BinaryWriter: fewer bytes written than set aside")
                initialized += count
            }
        }
    }

    /// A path as `appendString(path.slashless)` writes it, without building that string first.
    public static func appendPath(_ path: Path, to bytes: inout [UInt8]) {
        let length = Self.length(of: path)
        Self.append(count: 2 + length, to: &bytes) { cursor in
            cursor.write(UInt16(truncatingIfNeeded: length))
            cursor.writePath(path)
        }
    }

    /// The UTF-8 bytes of `path` written slashless (its keys and the `/`s between them), as `appendPath` writes it
    /// after its length.
    public static func length(of path: Path) -> Int {
        var length = max(path.count - 1, 0)
        for index in path.keys.indices { length += path.keys[index].string.utf8.count }
        return length
    }

    /// `text`'s UTF-8, with no length: in one copy when the string holds its bytes in one piece (a native string
    /// always does), else byte by byte (appending the string's UTF-8 view goes through its iterator, byte by byte).
    public static func appendUTF8(of text: String, to bytes: inout [UInt8]) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if appended == nil { bytes.append(contentsOf: text.utf8) }
    }
}
