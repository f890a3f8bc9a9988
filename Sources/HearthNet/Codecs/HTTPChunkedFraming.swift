/// The chunked transfer coding (RFC 9112 §7.1) as a writer's framing: each write of a `.stream` reply becomes one
/// chunk, and closing the writer sends the last, empty chunk.
struct HTTPChunkedFraming: OutboundFraming {
    /// The chunk's size line, the bytes as they are, and the closing CRLF.
    func frame(_ bytes: [UInt8]) -> [[UInt8]] {
        guard !bytes.isEmpty else { return [] }
        return [HTTPResponseEncoder.chunkSizeLine(bytes.count), bytes, [0x0D, 0x0A]]
    }

    var trailer: [UInt8] { HTTPResponseEncoder.lastChunk }
}
