import Glibc

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
        let deadline = ContinuousClock.now + self.timeout
        let descriptor = try self.connect(to: address, before: deadline)
        defer { Syscall.close(descriptor) }
        try self.send(Self.requestBytes(method, address, target, body: body), on: descriptor, address, deadline)
        return try self.receive(on: descriptor, address, method: method, before: deadline)
    }

    /// The request as sent: `Host`, `Connection: close`, and for a body its type and length.
    package static func requestBytes(
        _ method: String, _ address: SocketAddress, _ target: String, body: [UInt8]
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n"
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + body
    }

    private func connect(to address: SocketAddress, before deadline: ContinuousClock.Instant) throws(HTTPClientError)
        -> Int32
    {
        let descriptor: Int32
        do {
            descriptor = try Socket.startConnect(to: address)
        } catch {
            throw Self.connectionError(address, error)
        }
        do throws(HTTPClientError) {
            try Self.wait(descriptor, for: Int16(POLLOUT), address, "connecting", before: deadline)
            let pending = Socket.pendingError(descriptor)
            guard pending == 0 else {
                throw Self.connectionError(address, Socket.connectError(to: "\(address)", pending))
            }
        } catch {
            Syscall.close(descriptor)
            throw error
        }
        return descriptor
    }

    private func send(
        _ bytes: [UInt8], on descriptor: Int32, _ address: SocketAddress, _ deadline: ContinuousClock.Instant
    ) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { pointer in
                Result { () throws(IOError) in try Socket.send(descriptor, pointer) }
            }
            switch result {
            case .failure(let error): throw Self.connectionError(address, error)
            case .success(.done(let count)): offset += count
            case .success(.wouldBlock):
                try Self.wait(descriptor, for: Int16(POLLOUT), address, "sending", before: deadline)
            }
        }
    }

    private func receive(
        on descriptor: Int32, _ address: SocketAddress, method: String, before deadline: ContinuousClock.Instant
    ) throws(HTTPClientError) -> HTTPResponse {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let response = try HTTPResponseReader.read(received, atEnd: false, method: method) { return response }
            guard received.count <= self.maximumResponseBytes else {
                throw HTTPClientError(
                    .malformedResponse,
                    "\(address) sent more than \(self.maximumResponseBytes) bytes without finishing its response.")
            }
            let result = buffer.withUnsafeMutableBytes { pointer in
                Result { () throws(IOError) in try Socket.receive(descriptor, into: pointer) }
            }
            switch result {
            case .failure(let error):
                throw Self.connectionError(address, error)
            case .success(.done(0)):
                guard let response = try HTTPResponseReader.read(received, atEnd: true, method: method) else {
                    throw HTTPClientError(.malformedResponse, "\(address) closed before its response was complete.")
                }
                return response
            case .success(.done(let count)):
                received.append(contentsOf: buffer[..<count])
            case .success(.wouldBlock):
                try Self.wait(descriptor, for: Int16(POLLIN), address, "waiting for the response", before: deadline)
            }
        }
    }

    /// Blocks until `descriptor` is ready for `events` (or has an error to report), or throws once `deadline` passes.
    private static func wait(
        _ descriptor: Int32, for events: Int16, _ address: SocketAddress, _ doing: String,
        before deadline: ContinuousClock.Instant
    ) throws(HTTPClientError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw HTTPClientError(
                    .timedOut,
                    "\(address) did not answer in time (timed out \(doing)); is the process stopped or "
                        + "overloaded?")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var poll = pollfd(fd: descriptor, events: events, revents: 0)
            let result = Glibc.poll(&poll, 1, milliseconds)
            if result > 0 { return }
            if result < 0 && errno != EINTR {
                throw HTTPClientError(.unreachable, "Waiting on \(address) failed: poll returned errno \(errno).")
            }
        }
    }

    private static func connectionError(_ address: SocketAddress, _ error: IOError) -> HTTPClientError {
        switch error.code {
        case .connectionRefused:
            HTTPClientError(.refused, "Nothing listens on \(address) (connection refused); is the server running?")
        case .timedOut:
            HTTPClientError(.timedOut, error.message)
        default:
            HTTPClientError(.unreachable, error.message)
        }
    }
}
