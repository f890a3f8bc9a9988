extension WebSocketFrameParser {
    /// What `nextInbound()` yields: an event as `nextEvent()` gives it, or a text message left where it lies.
    package enum Inbound: Sendable {
        case event(WebSocketEvent)
        case textInPlace(WebSocketTextInPlace)
    }

    /// `nextEvent()`, except that a text message in one frame that arrived whole and is the last of the input read
    /// so far (what a realtime client that waits for each answer sends) is unmasked and validated where it lies and
    /// given as its bytes, with no `String` made of it. The same messages and errors as `nextEvent()`, in the same
    /// order: a frame that is not such a message, or whose text is not valid UTF-8, is read the general way.
    package mutating func nextInbound() throws(WebSocketProtocolError) -> Inbound? {
        guard case .header = self.state else { return try self.nextEvent().map(Inbound.event) }
        guard let frame = try self.readHeader() else { return nil }
        if let text = self.textInPlace(frame) { return .textInPlace(text) }
        if let text = try self.wholeTextMessage(frame) { return .event(.text(text)) }
        self.state = .payload(frame)
        return try self.nextEvent().map(Inbound.event)
    }

    /// The text of a one-frame message whose payload is the rest of the input, unmasked in place, when it is valid
    /// UTF-8 (the input holds no other bytes, so nothing is parsed while a caller holds the bytes: the next append
    /// finds the buffer its own again). Nil, with the payload as it arrived, for any other frame or an invalid text,
    /// which `wholeTextMessage` then reads and refuses with its own error.
    private mutating func textInPlace(_ frame: Frame) -> WebSocketTextInPlace? {
        guard frame.opcode == .text, frame.isFinal, frame.remaining == self.unreadByteCount else { return nil }
        let isValid = self.input.withUnsafeMutableUnreadBytes(count: frame.remaining) { payload in
            frame.maskingKey?.apply(to: payload, payloadOffset: 0)
            var validator = UTF8Validator()
            let isValid = validator.consume(UnsafeBufferPointer(payload.assumingMemoryBound(to: UInt8.self)))
            guard isValid, validator.isAtBoundary else {
                // Masking again restores what arrived (the same XOR).
                frame.maskingKey?.apply(to: payload, payloadOffset: 0)
                return false
            }
            return true
        }
        guard isValid else { return nil }
        let range = self.input.readIndex..<(self.input.readIndex + frame.remaining)
        self.input.readIndex += frame.remaining
        self.messageOpcode = nil
        return WebSocketTextInPlace(storage: self.input.bytes, range: range)
    }
}

/// A whole text message's bytes where the frame parser unmasked them, valid UTF-8: the parser's input buffer, shared
/// (copy-on-write) for as long as this value lives, so a holder should let go of it before more input is appended.
package struct WebSocketTextInPlace: Sendable {
    let storage: [UInt8]
    let range: Range<Int>

    /// Runs `body` over the message's UTF-8 bytes.
    package func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        self.storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[self.range])) }
    }
}
