import Glibc

extension WebSocketFrameParser {
    /// Moves as much of the frame's payload as has arrived into the message or control buffer, unmasking it and, for
    /// text, validating it as UTF-8 on the way. O(n) in the bytes moved.
    mutating func readPayload(of frame: inout Frame) throws(WebSocketProtocolError) {
        let count = min(frame.remaining, self.unreadByteCount)
        guard count > 0 else { return }
        let source = self.input.readIndex..<(self.input.readIndex + count)
        if frame.opcode.isControl {
            let start = self.control.count
            self.control.append(contentsOf: self.input.bytes[source])
            frame.maskingKey?.apply(to: &self.control, in: start..<self.control.count, payloadOffset: frame.offset)
        } else {
            let start = self.message.count
            if self.message.capacity == 0 {
                let expected = frame.offset + frame.remaining
                self.message.reserveCapacity(min(expected, Self.maximumUpfrontReservation))
            }
            self.message.append(contentsOf: self.input.bytes[source])
            frame.maskingKey?.apply(to: &self.message, in: start..<self.message.count, payloadOffset: frame.offset)
            if self.messageOpcode == .text && !self.validateText(from: start) {
                throw self.fail(
                    .invalidUTF8,
                    WebSocketCloseCode.invalidPayload,
                    "A text message was not valid UTF-8; send binary frames for arbitrary bytes."
                )
            }
        }
        self.input.readIndex += count
        frame.offset += count
        frame.remaining -= count
    }

    /// A text message in one frame whose payload has wholly arrived (what clients of the realtime protocol send),
    /// unmasked where it lies in the input and made a `String` from there, with no message buffer; nil for any
    /// other frame, which is read the general way. The bytes are validated once: decoding repairs whatever is not
    /// UTF-8, so a text that holds the payload's bytes unchanged proves them valid (a compare of the two copies
    /// costs a quarter of a second validation). Only a payload that changed is walked by `UTF8Validator`, to tell
    /// which error it is. A payload above `decodesBeforeValidatingAtMost` is validated first instead: repairing
    /// turns each invalid byte into three, so a large refused frame would cost a String of up to three times its
    /// size before its refusal. The checks, and their errors, are the general way's.
    mutating func wholeTextMessage(_ frame: Frame) throws(WebSocketProtocolError) -> String? {
        guard frame.opcode == .text, frame.isFinal, frame.remaining <= self.unreadByteCount else { return nil }
        let (text, isValid, isWhole) = self.input.withUnsafeMutableUnreadBytes(count: frame.remaining) { payload in
            frame.maskingKey?.apply(to: payload, payloadOffset: 0)
            let bytes = UnsafeBufferPointer(payload.assumingMemoryBound(to: UInt8.self))
            if bytes.count > Self.decodesBeforeValidatingAtMost {
                var validator = UTF8Validator()
                let isValid = validator.consume(bytes)
                guard isValid, validator.isAtBoundary else { return ("", isValid, false) }
                return (String(decoding: bytes, as: UTF8.self), true, true)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if Self.holds(text, unchanged: bytes) { return (text, true, true) }
            // A changed payload is refused either way; the validator tells an invalid byte from a cut-off character.
            var validator = UTF8Validator()
            return ("", validator.consume(bytes), false)
        }
        guard isValid else {
            throw self.fail(
                .invalidUTF8,
                WebSocketCloseCode.invalidPayload,
                "A text message was not valid UTF-8; send binary frames for arbitrary bytes."
            )
        }
        guard isWhole else {
            throw self.fail(
                .invalidUTF8,
                WebSocketCloseCode.invalidPayload,
                "A text message ended in the middle of a UTF-8 character."
            )
        }
        self.input.readIndex += frame.remaining
        self.messageOpcode = nil
        return text
    }

    /// Whether `text`'s UTF-8 is exactly `bytes`.
    /// The largest whole text payload decoded before it is validated (64 KiB; realtime messages are far smaller).
    static let decodesBeforeValidatingAtMost = 64 * 1024

    private static func holds(_ text: String, unchanged bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { decoded in
            guard decoded.count == bytes.count else { return false }
            guard let left = decoded.baseAddress, let right = bytes.baseAddress else { return true }
            return memcmp(left, right, bytes.count) == 0
        }
    }

    /// Runs the UTF-8 validator over the message bytes from `start` on.
    private mutating func validateText(from start: Int) -> Bool {
        var validator = self.validator
        let isValid = self.message.withUnsafeBufferPointer { buffer in
            validator.consume(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        self.validator = validator
        return isValid
    }

    /// Turns a fully read frame into an event: a control frame always yields one, a data frame only when it ends
    /// its message.
    mutating func finish(_ frame: Frame) throws(WebSocketProtocolError) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping:
            return .ping(self.control)
        case .pong:
            return .pong(self.control)
        case .close:
            return try self.closeEvent()
        case .text, .binary, .continuation:
            guard frame.isFinal else { return nil }
            return try self.messageEvent()
        }
    }

    /// Hands over the assembled message and resets for the next one.
    private mutating func messageEvent() throws(WebSocketProtocolError) -> WebSocketEvent {
        let bytes = self.message
        let opcode = self.messageOpcode
        self.message = []
        self.messageOpcode = nil
        switch opcode {
        case .text:
            guard self.validator.isAtBoundary else {
                throw self.fail(
                    .invalidUTF8,
                    WebSocketCloseCode.invalidPayload,
                    "A text message ended in the middle of a UTF-8 character."
                )
            }
            return .text(String(decoding: bytes, as: UTF8.self))
        case .binary:
            return .binary(bytes)
        case .continuation, .close, .ping, .pong, nil:
            preconditionFailure(
                "message ended with message opcode \(String(describing: opcode)) in state \(self.state)"
            )
        }
    }

    /// Parses a close frame's body (RFC 6455 §5.5.1): empty, or a valid two-byte code and a UTF-8 reason.
    private mutating func closeEvent() throws(WebSocketProtocolError) -> WebSocketEvent {
        let body = self.control
        guard !body.isEmpty else {
            self.finishAfterClose()
            return .close(code: nil, reason: "")
        }
        guard body.count >= 2 else {
            throw self.fail(
                .invalidCloseFrame,
                WebSocketCloseCode.protocolError,
                "A close frame had a one-byte body; it must be empty or start with a two-byte status code."
            )
        }
        let code = UInt16(body[0]) << 8 | UInt16(body[1])
        guard WebSocketCloseCode.isValidOnWire(code) else {
            throw self.fail(
                .invalidCloseFrame,
                WebSocketCloseCode.protocolError,
                "A close frame carried status code \(code), which may not be sent (RFC 6455 §7.4)."
            )
        }
        var validator = UTF8Validator()
        guard validator.consume(body[2...]) && validator.isAtBoundary else {
            throw self.fail(
                .invalidUTF8,
                WebSocketCloseCode.invalidPayload,
                "A close frame's reason was not valid UTF-8."
            )
        }
        self.finishAfterClose()
        return .close(code: code, reason: String(decoding: body[2...], as: UTF8.self))
    }

    /// After a close frame the peer may send nothing more; release the buffers and ignore further input.
    private mutating func finishAfterClose() {
        self.state = .closed
        self.input.removeAll()
        self.message = []
        self.messageOpcode = nil
        self.control = []
    }
}
