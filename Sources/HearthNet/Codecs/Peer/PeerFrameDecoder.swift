/// Turns the bytes of a peer connection into whole frames, however the reads split them: feed each read with
/// `append(_:)`, then call `next()` until it returns `nil`.
///
/// The payload limit is checked from the header, before any of the payload is buffered, so a peer cannot make the
/// decoder hold more than one maximal frame plus one read. The limit may change between frames: a connection
/// starts with `PeerFrame.handshakeMaximumPayloadSize` and raises it once the peer has proved the cluster secret.
/// After an error the decoder keeps throwing it; the connection must be closed.
package struct PeerFrameDecoder: Sendable {
    /// The largest payload the next frames may declare.
    package var maximumPayloadSize: Int
    private var input = ReadBuffer()
    private var failure: PeerFrameError?

    package init(maximumPayloadSize: Int = PeerFrame.defaultMaximumPayloadSize) {
        self.maximumPayloadSize = max(0, maximumPayloadSize)
    }

    /// Bytes received but not yet returned as frames.
    package var bufferedByteCount: Int { self.input.unreadCount }

    /// Queues bytes from the connection. O(n) in `bytes`, amortised.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        guard self.failure == nil else { return }
        self.input.append(bytes)
    }

    /// The next whole frame, or `nil` until more bytes arrive.
    ///
    /// - Throws: `PeerFrameError.Code.frameTooLarge` when a header declares a payload above the limit.
    package mutating func next() throws(PeerFrameError) -> PeerFrame? {
        if let failure { throw failure }
        guard self.bufferedByteCount >= PeerFrame.headerSize else { return nil }
        var length = 0
        for offset in 0..<4 { length |= Int(self.input[unread: offset]) << (8 * offset) }
        guard length <= self.maximumPayloadSize else {
            let error = PeerFrameError(
                .frameTooLarge,
                "A peer frame declares \(length) payload bytes, above the limit of \(self.maximumPayloadSize); the "
                    + "connection is closed. Raise the peer frame limit on every node, or send smaller frames."
            )
            self.failure = error
            self.input.removeAll()
            throw error
        }
        guard self.bufferedByteCount >= PeerFrame.headerSize + length else { return nil }
        let kind = self.input[unread: 4]
        let start = self.input.readIndex + PeerFrame.headerSize
        let payload = Array(self.input.bytes[start..<(start + length)])
        self.input.readIndex = start + length
        return PeerFrame(kind: kind, payload: payload)
    }
}
