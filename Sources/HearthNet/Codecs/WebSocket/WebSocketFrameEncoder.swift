/// Builds WebSocket frames as bytes ready for a socket (RFC 6455 §5.2).
///
/// The `encodeText`/`encodeBinary`/`encodePing`/`encodePong`/`encodeClose` helpers make the unmasked, unfragmented
/// frames a server sends. `encodeFrame(_:payload:isFinal:maskingKey:)` is the general form; given a masking key it
/// plays the client, which tests use to talk to the server.
public enum WebSocketFrameEncoder {
    /// The most payload a control frame (close, ping, pong) may carry.
    public static let maximumControlPayloadBytes = 125

    /// A final text frame carrying `text` as UTF-8.
    public static func encodeText(_ text: String) -> [UInt8] {
        self.encodeFrame(.text, payload: text.utf8)
    }

    /// A final text frame carrying `bytes`, which must already be valid UTF-8 (a message the server encoded), as
    /// they are: no `String` is made of them on the way.
    public static func encodeText(utf8 bytes: [UInt8]) -> [UInt8] {
        self.encodeFrame(.text, payload: bytes)
    }

    /// A final text frame of the payload `write` appends, framed where it is written: the header's room is left
    /// before it and filled in once its length is known, so a payload of at most 125 bytes (a write's
    /// acknowledgement) is never copied; a longer one is framed from it as `encodeText(utf8:)` frames it.
    public static func encodeText(writing write: (inout [UInt8]) -> Void) -> [UInt8] {
        var frame: [UInt8] = []
        // Room for a short message at once (the header's two bytes alone would be outgrown by its first write).
        frame.reserveCapacity(Self.shortFrameCapacity)
        frame.append(0)
        frame.append(0)
        write(&frame)
        let length = frame.count - 2
        guard length <= 125 else { return self.encodeFrame(.text, payload: frame[2...]) }
        frame[0] = 0x80 | WebSocketOpcode.text.rawValue
        frame[1] = UInt8(length)
        return frame
    }

    /// A final text frame of a short payload (at most 125 bytes, valid UTF-8) that `write` stores into room of
    /// `capacity` bytes, returning how many it stored: the frame is allocated once at its size, header and payload
    /// written in place, with no growth, no empty array replaced and no append's checks.
    public static func encodeShortText(
        capacity: Int, writing write: (UnsafeMutableBufferPointer<UInt8>) -> Int
    ) -> [UInt8] {
        precondition(capacity <= 125, "a short text frame carries at most 125 bytes")
        return [UInt8](unsafeUninitializedCapacity: 2 + capacity) { frame, count in
            let length = write(UnsafeMutableBufferPointer(rebasing: frame[2...]))
            precondition(length >= 0 && length <= capacity, "a short text frame's payload overran its room")
            frame[0] = 0x80 | WebSocketOpcode.text.rawValue
            frame[1] = UInt8(length)
            count = 2 + length
        }
    }

    /// The room `encodeText(writing:)` makes first: a short frame's header and payload (an acknowledgement is about
    /// 50 bytes).
    static let shortFrameCapacity = 128

    /// A final binary frame.
    public static func encodeBinary(_ bytes: [UInt8]) -> [UInt8] {
        self.encodeFrame(.binary, payload: bytes)
    }

    /// A ping; a payload beyond 125 bytes is cut to its first 125.
    public static func encodePing(_ payload: [UInt8] = []) -> [UInt8] {
        self.encodeFrame(.ping, payload: payload.prefix(Self.maximumControlPayloadBytes))
    }

    /// A pong, normally echoing a ping's payload; a payload beyond 125 bytes is cut to its first 125.
    public static func encodePong(_ payload: [UInt8]) -> [UInt8] {
        self.encodeFrame(.pong, payload: payload.prefix(Self.maximumControlPayloadBytes))
    }

    /// A close frame; see `closePayload(code:reason:)` for what the body holds.
    public static func encodeClose(code: UInt16?, reason: String = "") -> [UInt8] {
        self.encodeFrame(.close, payload: self.closePayload(code: code, reason: reason))
    }

    /// The body of a close frame: the code in network order, then the reason as UTF-8, cut on a character boundary
    /// so the body stays within 125 bytes.
    ///
    /// The body is empty when `code` is `nil` or a code that may never travel (such as 1005, 1006 or 1015; see
    /// `WebSocketCloseCode.isValidOnWire`): RFC 6455 allows a reason only after a code.
    public static func closePayload(code: UInt16?, reason: String) -> [UInt8] {
        guard let code, WebSocketCloseCode.isValidOnWire(code) else { return [] }
        var body: [UInt8] = [UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code)]
        body.append(contentsOf: self.truncatedUTF8(reason, maximumBytes: Self.maximumControlPayloadBytes - 2))
        return body
    }

    /// One frame with any opcode, FIN flag and optional masking. O(n) in the payload.
    ///
    /// - Parameters:
    ///   - opcode: the frame type; control frames should carry at most 125 bytes and be final.
    ///   - payload: the unmasked payload.
    ///   - isFinal: whether FIN is set (`false` for all but the last fragment of a message).
    ///   - maskingKey: `nil` for server frames; a key to mask the payload as a client must.
    public static func encodeFrame(
        _ opcode: WebSocketOpcode,
        payload: some Collection<UInt8>,
        isFinal: Bool = true,
        maskingKey: WebSocketMaskingKey? = nil
    ) -> [UInt8] {
        let length = payload.count
        var frame: [UInt8] = []
        frame.reserveCapacity(length + 14)
        frame.append((isFinal ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        if length <= 125 {
            frame.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            frame.append(maskBit | 126)
            frame.append(UInt8(truncatingIfNeeded: length >> 8))
            frame.append(UInt8(truncatingIfNeeded: length))
        } else {
            frame.append(maskBit | 127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: wide >> UInt64(shift)))
            }
        }
        if let maskingKey {
            frame.append(contentsOf: maskingKey.bytes)
        }
        let payloadStart = frame.count
        frame.append(contentsOf: payload)
        maskingKey?.apply(to: &frame, in: payloadStart..<frame.count, payloadOffset: 0)
        return frame
    }

    /// The UTF-8 bytes of `text`, cut to at most `maximumBytes` without splitting a character's encoding.
    static func truncatedUTF8(_ text: String, maximumBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = scalar.utf8
            guard bytes.count + encoded.count <= maximumBytes else { break }
            bytes.append(contentsOf: encoded)
        }
        return bytes
    }
}
