import HearthNet
import HearthTestKit

/// Everything a parser produced for one input: its events, then the error that stopped it, if any.
struct WebSocketParse: Equatable, CustomStringConvertible {
    var events: [WebSocketEvent] = []
    var error: WebSocketProtocolError?

    /// The close code the error asks for, or `nil` when parsing did not fail.
    var closeCode: UInt16? { self.error?.closeCode }

    var description: String {
        let shown = self.events.map { event -> String in
            switch event {
            case .text(let text): "text(\(text.utf8.count)B)"
            case .binary(let bytes): "binary(\(bytes.count)B)"
            case .ping(let bytes): "ping(\(bytes.count)B)"
            case .pong(let bytes): "pong(\(bytes.count)B)"
            case .close(let code, let reason): "close(\(code.map(String.init) ?? "nil"), \(reason))"
            }
        }
        return "\(shown) error=\(self.error.map { "\($0.code)/\($0.closeCode)" } ?? "nil")"
    }
}

/// How to cut the input before feeding it.
enum Chunking {
    case whole
    case byteByByte
    /// Random piece sizes from 1 to `maximum`, drawn from `seed`.
    case random(seed: UInt64, maximum: Int)
}

/// Feeds `input` to a fresh parser cut as `chunking` says, draining events after every piece.
func parseWebSocket(
    _ input: [UInt8],
    chunking: Chunking = .whole,
    maximumMessageBytes: Int = WebSocketFrameParser.defaultMaximumMessageBytes,
    expectsMaskedFrames: Bool = true
) -> WebSocketParse {
    var parser = WebSocketFrameParser(
        maximumMessageBytes: maximumMessageBytes,
        expectsMaskedFrames: expectsMaskedFrames
    )
    var result = WebSocketParse()
    var random = SeededRandom(seed: 0)
    var maximumPiece = input.count
    switch chunking {
    case .whole: break
    case .byteByByte: maximumPiece = 1
    case .random(let seed, let maximum):
        random = SeededRandom(seed: seed)
        maximumPiece = maximum
    }
    var offset = 0
    repeat {
        let size = maximumPiece <= 1 ? 1 : Int.random(in: 1...maximumPiece, using: &random)
        let end = min(input.count, offset + size)
        parser.append(input[offset..<end])
        offset = end
        do {
            while let event = try parser.nextEvent() {
                result.events.append(event)
            }
        } catch {
            result.error = error
            return result
        }
    } while offset < input.count
    return result
}

/// A client frame: masked with a fixed key unless `maskingKey` is `nil`.
func clientFrame(
    _ opcode: WebSocketOpcode,
    _ payload: [UInt8],
    isFinal: Bool = true,
    maskingKey: WebSocketMaskingKey? = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
) -> [UInt8] {
    WebSocketFrameEncoder.encodeFrame(opcode, payload: payload, isFinal: isFinal, maskingKey: maskingKey)
}

/// A masked client text frame.
func clientText(_ text: String, isFinal: Bool = true) -> [UInt8] {
    clientFrame(.text, Array(text.utf8), isFinal: isFinal)
}

/// A masked client close frame.
func clientClose(code: UInt16?, reason: String = "") -> [UInt8] {
    var body: [UInt8] = []
    if let code {
        body = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }
    return clientFrame(.close, body)
}

/// A frame header written by hand, for encodings the encoder refuses to produce: byte 0, the length byte with its
/// mask bit, extended length bytes, then a zero masking key when masked.
func rawHeader(_ first: UInt8, lengthByte: UInt8, extended: [UInt8] = [], isMasked: Bool = true) -> [UInt8] {
    [first, lengthByte | (isMasked ? 0x80 : 0)] + extended + (isMasked ? [0, 0, 0, 0] : [])
}
