/// A tiny blocking HTTP/1.1 client for the command line (`hearth cluster status`, `wait`, `partition`, `heal`):
/// one request per connection (`Connection: close`), one deadline for the whole exchange.
///
/// It exists so the `hearth` executable can ask its own nodes' operations endpoints without Foundation's
/// `URLSession`, which on Linux would pull libcurl in at run time. It blocks the calling thread, never the reactor
/// (it has none), and only speaks to numeric addresses, as the cluster configuration names them. It is not a
/// general client: no keep-alive, no redirects, no TLS.
package struct BlockingHTTPClient: Sendable {
    /// How long connecting, sending the request and receiving the whole response may take together.
    package var timeout: Duration
    /// The largest response accepted, head and body; a bigger one is refused as malformed.
    package var maximumResponseBytes = 16 * 1024 * 1024
    /// Sent as `Authorization: Bearer …` with every request when set: an administrator's database secret, which the
    /// cluster's layout and operations (`/.cluster…`) ask for.
    package var credential: String?

    package init(timeout: Duration = .seconds(2)) {
        self.timeout = timeout
    }

    /// Sends `method target` to `address` with `body` (when not empty, as `application/json`) and returns the
    /// response.
    ///
    /// - Throws: `HTTPClientError`: `.refused` when nothing listens, `.timedOut` when the deadline passes,
    ///   `.unreachable` for other connection failures, `.malformedResponse` when the answer is not HTTP/1.1.
    package func request(
        _ method: String, _ address: SocketAddress, _ target: String, body: [UInt8] = []
    ) throws(HTTPClientError) -> HTTPResponse {
        let connection = try BlockingConnection(to: address, before: ContinuousClock.now + self.timeout)
        defer { connection.close() }
        try connection.send(Self.requestBytes(method, address, target, body: body, credential: self.credential))
        return try self.receive(on: connection, method: method)
    }

    /// The request as sent: `Host`, `Connection: close`, the credential if any, and for a body its type and length.
    package static func requestBytes(
        _ method: String, _ address: SocketAddress, _ target: String, body: [UInt8], credential: String? = nil
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n"
        if let credential { head += "Authorization: Bearer \(credential)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + body
    }

    private func receive(on connection: BlockingConnection, method: String) throws(HTTPClientError) -> HTTPResponse {
        var received: [UInt8] = []
        while true {
            if let response = try HTTPResponseReader.read(received, atEnd: false, method: method) { return response }
            guard received.count <= self.maximumResponseBytes else {
                throw HTTPClientError(
                    .malformedResponse,
                    "\(connection.address) sent more than \(self.maximumResponseBytes) bytes without finishing its "
                        + "response.")
            }
            let bytes = try connection.receive()
            guard !bytes.isEmpty else {
                guard let response = try HTTPResponseReader.read(received, atEnd: true, method: method) else {
                    throw HTTPClientError(
                        .malformedResponse, "\(connection.address) closed before its response was complete.")
                }
                return response
            }
            received.append(contentsOf: bytes)
        }
    }
}
