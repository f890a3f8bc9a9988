/// The chunked transfer coding (RFC 9112 §7.1) as a writer's framing: each write of a `.stream` reply becomes one
/// chunk, and closing the writer sends the last, empty chunk.
struct HTTPChunkedFraming: OutboundFraming {
    func frame(_ bytes: [UInt8]) -> [UInt8] {
        HTTPResponseEncoder.encodeChunk(bytes)
    }

    var trailer: [UInt8] { HTTPResponseEncoder.lastChunk }
}
