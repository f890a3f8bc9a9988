import HearthNet
import Testing

/// A chunked body decoded as it arrives gives the same payload however its bytes are split, ends at its last chunk
/// and trailers, and refuses framing that is not HTTP.
@Suite struct ChunkedBodyDecoderTests {
    private static let body = Array(
        "5\r\nhello\r\n1;ext=1\r\n \r\nB\r\nchunked wor\r\n2\r\nld\r\n0\r\nX-Trailer: 1\r\n\r\nnext".utf8)

    /// Feeds `bytes` in two pieces split at `split`; returns the payload and whether the body ended.
    private static func decode(_ bytes: [UInt8], split: Int) throws -> (payload: String, finished: Bool) {
        var decoder = ChunkedBodyDecoder()
        var payload: [UInt8] = []
        try decoder.decode(bytes[..<split]) { payload.append(contentsOf: $0) }
        try decoder.decode(bytes[split...]) { payload.append(contentsOf: $0) }
        return (String(decoding: payload, as: UTF8.self), decoder.isFinished)
    }

    /// Split anywhere, the body gives its whole payload and ends; the bytes after it are left alone.
    @Test func everySplitGivesThePayloadAndTheEnd() throws {
        for split in 0...Self.body.count {
            let (payload, finished) = try Self.decode(Self.body, split: split)
            #expect(payload == "hello chunked world", "split at \(split)")
            #expect(finished, "split at \(split)")
        }
    }

    /// A body whose last chunk has not arrived is not finished, and gives only what arrived.
    @Test func aBodyCutShortIsNotFinished() throws {
        let cut = Array(Self.body.prefix(30))
        let (payload, finished) = try Self.decode(cut, split: 10)
        #expect(!finished && "hello chunked world".hasPrefix(payload))
    }

    /// A chunk size that is not hexadecimal, or data longer than its size, is refused.
    @Test func framingThatIsNotHTTPIsRefused() {
        #expect(throws: HTTPClientError.self) { try Self.decode(Array("zz\r\nhello\r\n".utf8), split: 3) }
        #expect(throws: HTTPClientError.self) { try Self.decode(Array("2\r\nhello\r\n".utf8), split: 3) }
    }
}
