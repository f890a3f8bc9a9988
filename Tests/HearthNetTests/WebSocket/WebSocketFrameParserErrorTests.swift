import HearthNet
import Testing

/// Every protocol violation the parser catches, with the close code it asks for.
@Suite struct WebSocketFrameParserErrorTests {
    /// Parses `input` whole and byte by byte, checks both agree, and returns the error.
    private func failure(
        _ input: [UInt8],
        maximumMessageBytes: Int = WebSocketFrameParser.defaultMaximumMessageBytes
    ) -> WebSocketProtocolError? {
        let whole = parseWebSocket(input, maximumMessageBytes: maximumMessageBytes)
        let bytewise = parseWebSocket(input, chunking: .byteByByte, maximumMessageBytes: maximumMessageBytes)
        #expect(whole == bytewise)
        return whole.error
    }

    @Test(arguments: [0x40, 0x20, 0x10, 0x70] as [UInt8])
    func rejectsReservedBitsWith1002(bit: UInt8) {
        let error = self.failure(rawHeader(0x81 | bit, lengthByte: 0))
        #expect(error?.code == .reservedBitsSet)
        #expect(error?.closeCode == 1002)
    }

    @Test(arguments: [3, 4, 5, 6, 7, 11, 12, 13, 14, 15] as [UInt8])
    func rejectsReservedOpcodesWith1002(opcode: UInt8) {
        let error = self.failure(rawHeader(0x80 | opcode, lengthByte: 0))
        #expect(error?.code == .unknownOpcode)
        #expect(error?.closeCode == 1002)
    }

    @Test func rejectsUnmaskedClientFramesWith1002() {
        let error = self.failure(WebSocketFrameEncoder.encodeText("hi"))
        #expect(error?.code == .unmaskedFrame)
        #expect(error?.closeCode == 1002)
    }

    @Test(arguments: [WebSocketOpcode.close, .ping, .pong])
    func rejectsFragmentedControlFramesWith1002(opcode: WebSocketOpcode) {
        let error = self.failure(clientFrame(opcode, [], isFinal: false))
        #expect(error?.code == .invalidControlFrame)
        #expect(error?.closeCode == 1002)
    }

    @Test func rejectsControlFramesOver125BytesWith1002() {
        #expect(self.failure(clientFrame(.ping, [UInt8](repeating: 1, count: 125))) == nil)
        let error = self.failure(clientFrame(.ping, [UInt8](repeating: 1, count: 126)))
        #expect(error?.code == .invalidControlFrame)
        #expect(error?.closeCode == 1002)
    }

    @Test func rejectsAContinuationWithoutAMessageWith1002() {
        let error = self.failure(clientFrame(.continuation, Array("x".utf8)))
        #expect(error?.code == .unexpectedFragment)
        #expect(error?.closeCode == 1002)
    }

    @Test(arguments: [WebSocketOpcode.text, .binary])
    func rejectsANewMessageInsideAFragmentedOneWith1002(opcode: WebSocketOpcode) {
        let error = self.failure(clientText("a", isFinal: false) + clientFrame(opcode, [0x62]))
        #expect(error?.code == .unexpectedFragment)
        #expect(error?.closeCode == 1002)
    }

    @Test func rejectsNonMinimalSixteenBitLengthsWith1002() {
        let error = self.failure(
            rawHeader(0x82, lengthByte: 126, extended: [0, 125]) + [UInt8](repeating: 0, count: 125)
        )
        #expect(error?.code == .invalidLength)
        #expect(error?.closeCode == 1002)
    }

    @Test func rejectsNonMinimalSixtyFourBitLengthsWith1002() {
        let error = self.failure(rawHeader(0x82, lengthByte: 127, extended: [0, 0, 0, 0, 0, 0, 0xFF, 0xFF]))
        #expect(error?.code == .invalidLength)
        #expect(error?.closeCode == 1002)
    }

    @Test func rejectsTheSixtyFourBitLengthsTopBitWith1002() {
        let error = self.failure(rawHeader(0x82, lengthByte: 127, extended: [0x80, 0, 0, 0, 0, 0, 0, 0]))
        #expect(error?.code == .invalidLength)
        #expect(error?.closeCode == 1002)
    }

    /// The limit is checked from the header: no payload byte needs to arrive.
    @Test func rejectsOversizedMessagesFromTheHeaderWith1009() {
        let header = rawHeader(0x82, lengthByte: 127, extended: [0, 0, 0, 0, 0x01, 0, 0, 1])
        let error = self.failure(header)
        #expect(error?.code == .messageTooBig)
        #expect(error?.closeCode == 1009)
    }

    @Test func countsTheLimitOverAllFragments() {
        let message = clientFrame(.binary, [UInt8](repeating: 1, count: 60), isFinal: false)
        #expect(
            self.failure(
                message + clientFrame(.continuation, [UInt8](repeating: 2, count: 40)),
                maximumMessageBytes: 100
            ) == nil
        )
        let error = self.failure(
            message + clientFrame(.continuation, [UInt8](repeating: 2, count: 41)),
            maximumMessageBytes: 100
        )
        #expect(error?.closeCode == 1009)
    }

    @Test func rejectsAOneByteCloseBodyWith1002() {
        let error = self.failure(clientFrame(.close, [0x03]))
        #expect(error?.code == .invalidCloseFrame)
        #expect(error?.closeCode == 1002)
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535] as [UInt16])
    func rejectsCloseCodesThatMayNotBeSentWith1002(code: UInt16) {
        let error = self.failure(clientClose(code: code))
        #expect(error?.code == .invalidCloseFrame)
        #expect(error?.closeCode == 1002)
    }

    @Test(
        arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999]
            as [UInt16]
    )
    func acceptsCloseCodesThatMayBeSent(code: UInt16) {
        #expect(parseWebSocket(clientClose(code: code, reason: "ok")).events == [.close(code: code, reason: "ok")])
    }

    @Test func rejectsACloseReasonThatIsNotUTF8With1007() {
        let error = self.failure(clientFrame(.close, [0x03, 0xE8, 0xCE, 0xBA, 0xE1, 0xBD]))
        #expect(error?.code == .invalidUTF8)
        #expect(error?.closeCode == 1007)
    }
}
