import HearthCore

/// The on-disk framing of one WAL record, so the writer and recovery agree byte for byte.
///
/// Layout, little-endian: `[u32 payload length][u32 CRC-32C of (lsn ‖ payload)][u64 lsn][payload]`.
package enum WALFrame {
    /// Bytes before the payload.
    package static let headerSize = 16

    /// What `decode` found at an offset.
    package enum Decoded: Sendable, Hashable {
        /// A complete record whose checksum matches; the next frame starts at `end`.
        case record(lsn: UInt64, payload: Range<Int>, end: Int)
        /// The bytes stop before the frame does.
        case incomplete
        /// The frame is complete but its checksum does not match.
        case corrupt
    }

    /// Appends the framing of one record to `buffer`. O(payload).
    package static func encode(lsn: UInt64, payload: [UInt8], into buffer: inout [UInt8]) {
        let start = buffer.count
        payload.withUnsafeBytes { Self.appendUnsealed(lsn: lsn, payload: $0, into: &buffer) }
        _ = buffer.withUnsafeMutableBytes { Self.seal($0, at: start) }
    }

    /// Appends the frame of one record with its checksum left zero, for `seal` to fill in where the frame ends up:
    /// the log's queue holds its records so, back to back as they go to disk, and the writer seals a whole batch in
    /// place, so a record's bytes are copied once between the caller's buffer and the file. O(payload).
    package static func appendUnsealed(lsn: UInt64, payload: UnsafeRawBufferPointer, into buffer: inout [UInt8]) {
        Self.append(UInt32(truncatingIfNeeded: payload.count), to: &buffer)
        Self.append(UInt32(0), to: &buffer)
        Self.append(lsn, to: &buffer)
        buffer.append(contentsOf: payload)
    }

    /// Appends the frame of one record whose payload `encode` appends to `buffer` itself, its checksum left zero as
    /// `appendUnsealed(lsn:payload:into:)` leaves it: a caller that encodes its records straight into the log's
    /// frames copies no payload at all. `encode` must only append. Returns the payload's size. O(payload).
    package static func appendUnsealed(
        lsn: UInt64, into buffer: inout [UInt8], encoding encode: (inout [UInt8]) -> Void
    ) -> Int {
        let start = buffer.count
        BinaryWriter.append(count: Self.headerSize, to: &buffer) { cursor in
            cursor.write(UInt32(0))
            cursor.write(UInt32(0))
            cursor.write(lsn)
        }
        encode(&buffer)
        let count = buffer.count - start - Self.headerSize
        buffer.withUnsafeMutableBytes {
            $0.storeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian, toByteOffset: start, as: UInt32.self)
        }
        return count
    }

    /// Fills in the checksum of the frame `appendUnsealed` wrote at `offset` (over its LSN and payload, which lie
    /// side by side) and returns where the next frame starts. The frame must lie wholly inside `bytes`. O(payload).
    package static func seal(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
        let end = offset + Self.headerSize + length
        precondition(end <= bytes.count, "an unsealed frame runs past its buffer")
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<end]))
        bytes.storeBytes(of: crc.value.littleEndian, toByteOffset: offset + 4, as: UInt32.self)
        return end
    }

    /// The framed size of a payload of `count` bytes.
    package static func size(payloadCount count: Int) -> Int {
        Self.headerSize + count
    }

    /// Decodes the frame starting at `offset`, verifying its checksum. O(payload).
    package static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Decoded {
        guard bytes.count - offset >= Self.headerSize else { return .incomplete }
        let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
        let stored = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
        let lsn = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian
        let start = offset + Self.headerSize
        guard bytes.count - start >= length else { return .incomplete }
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(start + length)]))
        guard crc.value == stored else { return .corrupt }
        return .record(lsn: lsn, payload: start..<(start + length), end: start + length)
    }

    /// Whether any position after `offset` holds a complete frame with a valid checksum. O(n · frame) worst case;
    /// recovery only calls it on a damaged tail.
    package static func hasValidFrame(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> Bool {
        var position = offset + 1
        while bytes.count - position >= Self.headerSize {
            if case .record = Self.decode(bytes, at: position) { return true }
            position += 1
        }
        return false
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }
}
