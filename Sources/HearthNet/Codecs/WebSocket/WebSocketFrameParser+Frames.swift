extension WebSocketFrameParser {
    /// Most bytes reserved up front for a message, whatever its header claims, so a peer announcing a large frame
    /// and then stalling cannot make us allocate the whole limit.
    static let maximumUpfrontReservation = 64 * 1024

    /// Reads one frame header once enough bytes are there; `nil` means "wait for more".
    ///
    /// Checks run in a fixed order, each as soon as the bytes it needs are present, so the error reported for a
    /// stream never depends on how it was split.
    mutating func readHeader() throws(WebSocketProtocolError) -> Frame? {
        let available = self.unreadByteCount
        guard available >= 2 else { return nil }
        let first = self.input[unread: 0]
        let second = self.input[unread: 1]
        guard first & 0x70 == 0 else {
            throw self.fail(
                .reservedBitsSet,
                WebSocketCloseCode.protocolError,
                "A frame set reserved bits (RSV1-3), but no WebSocket extension was negotiated."
            )
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw self.fail(
                .unknownOpcode,
                WebSocketCloseCode.protocolError,
                "A frame used the reserved opcode \(first & 0x0F); only 0, 1, 2, 8, 9 and 10 are defined."
            )
        }
        let isFinal = first & 0x80 != 0
        let isMasked = second & 0x80 != 0
        if isMasked != self.expectsMaskedFrames {
            throw self.expectsMaskedFrames
                ? self.fail(
                    .unmaskedFrame,
                    WebSocketCloseCode.protocolError,
                    "A client frame arrived unmasked; clients must mask every frame (RFC 6455 §5.3)."
                )
                : self.fail(
                    .maskedFrame,
                    WebSocketCloseCode.protocolError,
                    "A server frame arrived masked; servers must never mask frames (RFC 6455 §5.1)."
                )
        }
        let shortLength = Int(second & 0x7F)
        try self.checkSequence(opcode: opcode, isFinal: isFinal, shortLength: shortLength)

        let lengthBytes = shortLength == 126 ? 2 : (shortLength == 127 ? 8 : 0)
        guard available >= 2 + lengthBytes else { return nil }
        let length = try self.readLength(shortLength: shortLength, lengthBytes: lengthBytes)
        if !opcode.isControl && length > UInt64(self.maximumMessageBytes - self.message.count) {
            throw self.fail(
                .messageTooBig,
                WebSocketCloseCode.messageTooBig,
                "A message is larger than the \(self.maximumMessageBytes)-byte limit; send smaller messages."
            )
        }

        let headerLength = 2 + lengthBytes + (isMasked ? 4 : 0)
        guard available >= headerLength else { return nil }
        var maskingKey: WebSocketMaskingKey?
        if isMasked {
            let at = 2 + lengthBytes
            maskingKey = WebSocketMaskingKey(
                self.input[unread: at], self.input[unread: at + 1], self.input[unread: at + 2],
                self.input[unread: at + 3])
        }
        self.input.readIndex += headerLength

        let payloadLength = Int(length)
        switch opcode {
        case .text, .binary:
            self.messageOpcode = opcode
            self.validator = UTF8Validator()
        case .close, .ping, .pong:
            self.control.removeAll(keepingCapacity: true)
        case .continuation:
            break
        }
        return Frame(opcode: opcode, isFinal: isFinal, maskingKey: maskingKey, remaining: payloadLength)
    }

    /// Control frames must be whole and short; data frames must respect the fragmentation order (RFC 6455 §5.4).
    private mutating func checkSequence(
        opcode: WebSocketOpcode,
        isFinal: Bool,
        shortLength: Int
    ) throws(WebSocketProtocolError) {
        if opcode.isControl {
            guard isFinal else {
                throw self.fail(
                    .invalidControlFrame,
                    WebSocketCloseCode.protocolError,
                    "A control frame (close, ping or pong) was fragmented; control frames must have FIN set."
                )
            }
            guard shortLength <= 125 else {
                throw self.fail(
                    .invalidControlFrame,
                    WebSocketCloseCode.protocolError,
                    "A control frame (close, ping or pong) was longer than 125 bytes."
                )
            }
        } else if opcode == .continuation {
            guard self.messageOpcode != nil else {
                throw self.fail(
                    .unexpectedFragment,
                    WebSocketCloseCode.protocolError,
                    "A continuation frame arrived with no fragmented message to continue."
                )
            }
        } else {
            guard self.messageOpcode == nil else {
                throw self.fail(
                    .unexpectedFragment,
                    WebSocketCloseCode.protocolError,
                    "A new data frame started before the previous fragmented message was finished."
                )
            }
        }
    }

    /// Decodes the 7-, 16- or 64-bit payload length, rejecting encodings longer than needed (RFC 6455 §5.2).
    private mutating func readLength(shortLength: Int, lengthBytes: Int) throws(WebSocketProtocolError) -> UInt64 {
        guard lengthBytes > 0 else { return UInt64(shortLength) }
        var length: UInt64 = 0
        for index in 0..<lengthBytes {
            length = length << 8 | UInt64(self.input[unread: 2 + index])
        }
        let isMinimal = lengthBytes == 2 ? length >= 126 : length > 0xFFFF
        guard length >> 63 == 0 else {
            throw self.fail(
                .invalidLength,
                WebSocketCloseCode.protocolError,
                "A 64-bit payload length had its most significant bit set."
            )
        }
        guard isMinimal else {
            throw self.fail(
                .invalidLength,
                WebSocketCloseCode.protocolError,
                "A payload length of \(length) used a longer encoding than needed; lengths must be minimal."
            )
        }
        return length
    }
}
