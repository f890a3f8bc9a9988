extension BlockingHTTPClient {
    /// Sends `GET target` to `address` and hands a successful (200) response's body to `body` piece by piece as it
    /// arrives, chunked or not, so a body of any size passes through in bounded memory (`hearth backup`). Any other
    /// status is returned with its body read whole (up to `maximumResponseBytes`): the error the server explained.
    ///
    /// - Returns: the response: for a 200 without its body, else whole.
    /// - Throws: `HTTPClientError` as `request` does, and `.malformedResponse` when the server closes before the body
    ///   is complete; what `body` throws.
    package func download(
        _ target: String, from address: SocketAddress, into body: (ArraySlice<UInt8>) throws -> Void
    ) throws -> HTTPResponse {
        let connection = try BlockingConnection(to: address, before: ContinuousClock.now + self.timeout)
        defer { connection.close() }
        try connection.send(Self.requestBytes("GET", address, target, body: [], credential: self.credential))
        var received: [UInt8] = []
        let (response, bodyStart) = try Self.receiveHead(on: connection, into: &received)
        guard response.status == 200 else {
            while true {
                if let whole = try HTTPResponseReader.read(received, atEnd: false, method: "GET") { return whole }
                let bytes = try connection.receive()
                if bytes.isEmpty {
                    return try HTTPResponseReader.read(received, atEnd: true, method: "GET") ?? response
                }
                guard received.count <= self.maximumResponseBytes else { return response }
                received.append(contentsOf: bytes)
            }
        }
        let isChunked = response.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true
        var chunks = ChunkedBodyDecoder()
        var remaining = response.headers["Content-Length"].flatMap { Int($0) }
        var bytes = received[bodyStart...]
        while true {
            if isChunked {
                try chunks.decode(bytes, body)
                if chunks.isFinished { return response }
            } else if let left = remaining {
                try body(bytes.prefix(left))
                remaining = left - min(left, bytes.count)
                if remaining == 0 { return response }
            } else {
                try body(bytes)
            }
            let next = try connection.receive(maximum: 256 * 1024)
            if next.isEmpty {
                guard !isChunked, remaining == nil else {
                    throw HTTPClientError(.malformedResponse, "\(address) closed before the body was complete.")
                }
                return response
            }
            bytes = next[...]
        }
    }

    /// Reads until the response head is complete, keeping every byte received in `received`.
    private static func receiveHead(on connection: BlockingConnection, into received: inout [UInt8])
        throws(HTTPClientError) -> (response: HTTPResponse, bodyStart: Int)
    {
        while true {
            let bytes = try connection.receive(maximum: 64 * 1024)
            if bytes.isEmpty {
                throw HTTPClientError(
                    .malformedResponse, "\(connection.address) closed before its response head was complete.")
            }
            received.append(contentsOf: bytes)
            if let head = try HTTPResponseReader.head(in: received) { return head }
        }
    }
}
