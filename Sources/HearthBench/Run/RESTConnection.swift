import HearthNet

/// One keep-alive HTTP/1.1 connection to a node, as a REST client holds one: requests one at a time, reconnecting
/// after a failure or when the server closes. It blocks its caller (a REST client's own thread).
final class RESTConnection {
    let address: SocketAddress
    /// No exchange on the connection may run past this (the end of the run and its drain).
    private let deadline: ContinuousClock.Instant
    private var connection: BlockingConnection?

    init(address: SocketAddress, deadline: ContinuousClock.Instant) {
        self.address = address
        self.deadline = deadline
    }

    /// Sends one request and reads its response.
    /// - Throws: `HTTPClientError` when the node cannot be reached, closes early, or answers something that is not
    ///   HTTP/1.1; the connection is dropped then (the next request connects again).
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [])
        throws(HTTPClientError) -> HTTPResponse
    {
        do throws(HTTPClientError) {
            let connection: BlockingConnection
            if let open = self.connection {
                connection = open
            } else {
                connection = try BlockingConnection(to: self.address, before: self.deadline)
                self.connection = connection
            }
            var head = "\(method) \(target) HTTP/1.1\r\nHost: \(self.address)\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if method != "GET" { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
            try connection.send(Array((head + "\r\n").utf8) + body)
            var received: [UInt8] = []
            while true {
                if let response = try HTTPResponseReader.read(received, atEnd: false, method: method) {
                    if response.headers["Connection"]?.lowercased() == "close" { self.close() }
                    return response
                }
                let bytes = try connection.receive()
                guard !bytes.isEmpty else {
                    guard let response = try HTTPResponseReader.read(received, atEnd: true, method: method) else {
                        throw HTTPClientError(.malformedResponse, "\(self.address) closed without answering")
                    }
                    self.close()
                    return response
                }
                received += bytes
            }
        } catch {
            self.close()
            throw error
        }
    }

    func close() {
        self.connection?.close()
        self.connection = nil
    }
}
