import HearthCore
import Testing

@Suite struct BinaryCodecTests {
    @Test func fieldsRoundTripLittleEndian() throws {
        var bytes: [UInt8] = []
        BinaryWriter.append(UInt8(7), to: &bytes)
        BinaryWriter.append(UInt16(0x0102), to: &bytes)
        BinaryWriter.append(UInt32(0xDEAD_BEEF), to: &bytes)
        BinaryWriter.append(UInt64.max - 1, to: &bytes)
        BinaryWriter.appendString("héllo", to: &bytes)
        BinaryWriter.appendBytes([1, 2, 3], to: &bytes)
        BinaryWriter.append(UInt8(1), to: &bytes)
        #expect(bytes[1...2] == [0x02, 0x01])
        var reader = BinaryReader(bytes: bytes)
        #expect(try reader.readUInt8() == 7)
        #expect(try reader.readUInt16() == 0x0102)
        #expect(try reader.readUInt32() == 0xDEAD_BEEF)
        #expect(try reader.readUInt64() == UInt64.max - 1)
        #expect(try reader.readString() == "héllo")
        #expect(try reader.readLengthPrefixedBytes() == [1, 2, 3])
        #expect(try reader.readBool())
        #expect(reader.isAtEnd)
    }

    /// Fields written through a cursor into bytes set aside are the bytes `BinaryWriter` appends field by field,
    /// after whatever the buffer held.
    @Test func aCursorWritesTheSameBytesAsTheAppends() throws {
        let path = try Path(validating: "/posts/é-ü/a-key-longer-than-fifteen-bytes")
        var appended: [UInt8] = [0xAA]
        BinaryWriter.append(UInt8(7), to: &appended)
        BinaryWriter.append(UInt16(0x0102), to: &appended)
        BinaryWriter.append(UInt32(0xDEAD_BEEF), to: &appended)
        BinaryWriter.append(Int64.min + 1, to: &appended)
        BinaryWriter.appendUTF8(of: "héllo, a string not small", to: &appended)
        BinaryWriter.appendUTF8(of: "中", to: &appended)
        BinaryWriter.appendPath(path, to: &appended)
        var written: [UInt8] = [0xAA]
        let count = 1 + 2 + 4 + 8 + "héllo, a string not small".utf8.count + 3 + 2 + BinaryWriter.length(of: path)
        BinaryWriter.append(count: count, to: &written) { cursor in
            cursor.write(UInt8(7))
            cursor.write(UInt16(0x0102))
            cursor.write(UInt32(0xDEAD_BEEF))
            cursor.write(Int64.min + 1)
            cursor.writeUTF8(of: "héllo, a string not small")
            cursor.writeUTF8(of: "中")
            cursor.write(UInt16(truncatingIfNeeded: BinaryWriter.length(of: path)))
            cursor.writePath(path)
            let isAtEnd = cursor.isAtEnd
            #expect(isAtEnd)
        }
        #expect(written == appended)
        BinaryWriter.append(count: 0, to: &written) { cursor in
            let isAtEnd = cursor.isAtEnd
            #expect(isAtEnd)
        }
        #expect(written == appended)
    }

    @Test func aPathsLengthIsItsSlashlessText() throws {
        for text in ["", "a", "posts/p1/stars/é-ü/42", "🔥/x"] {
            #expect(BinaryWriter.length(of: try Path(validating: text)) == text.utf8.count, "\(text)")
        }
    }

    @Test func pathIsWrittenAsItsSlashlessString() throws {
        var bytes: [UInt8] = []
        BinaryWriter.appendPath(try Path(validating: "/posts/p1/starCount"), to: &bytes)
        var reader = BinaryReader(bytes: bytes)
        #expect(try reader.readString() == "posts/p1/starCount")
    }

    @Test func shortOrMalformedInputThrowsWithTheOffset() {
        var reader = BinaryReader(bytes: [1, 2, 3])
        #expect(throws: BinaryDecodingError("truncated at byte 0")) { try reader.readUInt32() }
        var lengthTooLong = BinaryReader(bytes: [9, 0, 65])
        #expect(throws: BinaryDecodingError("truncated at byte 2")) { try lengthTooLong.readString() }
        var notABool = BinaryReader(bytes: [2])
        #expect(throws: BinaryDecodingError.self) { try notABool.readBool() }
    }
}
