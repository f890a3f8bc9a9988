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
