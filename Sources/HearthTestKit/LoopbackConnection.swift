#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP connection to a test server on 127.0.0.1 with a read buffer: the byte-level half every test
/// client shares (`HTTPTestClient`, `WebSocketTestClient`), and usable alone for raw-socket tests.
///
/// Blocking: use it only from a dedicated thread (`onDedicatedThread`), never on Swift's cooperative pool.
public class LoopbackConnection {
    private let descriptor: Int32
    /// Received bytes not read yet.
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`. Reads give up after `timeoutSeconds` (a minute by default: the whole suite runs
    /// hundreds of tests at once on two cores, and a test's server may wait its turn for tens of seconds);
    /// `receiveBufferBytes` shrinks the kernel receive buffer, to play a slow reader.
    public init(port: Int, timeoutSeconds: Int = 60, receiveBufferBytes: Int? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket() failed: errno \(errno)") }
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestClientError(description: "connect to port \(port) failed: errno \(errno)")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = fd
    }

    deinit { close(self.descriptor) }

    /// Sends all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(self.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws {
        try self.send(Array(text.utf8))
    }

    /// Half-closes: the server sees end of input, and can still answer.
    public func shutdownWrite() {
        shutdown(self.descriptor, Int32(SHUT_WR))
    }

    /// Drops the connection with a reset instead of a FIN (an abrupt disconnect).
    public func abort() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(self.descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(self.descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the connection from this side (both directions), as a browser does when it drops a request; the
    /// descriptor itself is released when the connection object is.
    public func disconnect() {
        shutdown(self.descriptor, Int32(SHUT_RDWR))
    }

    /// Reads up to and including `delimiter`.
    public func readUntil(_ delimiter: String) throws -> [UInt8] {
        let pattern = Array(delimiter.utf8)
        var searchFrom = 0
        while true {
            if let range = self.buffer[searchFrom...].firstRange(of: pattern) {
                let result = Array(self.buffer[..<range.upperBound])
                self.buffer.removeFirst(range.upperBound)
                return result
            }
            searchFrom = max(0, self.buffer.count - pattern.count + 1)
            try self.receiveOrThrow("waiting for \(delimiter.debugDescription)")
        }
    }

    /// Reads exactly `count` bytes.
    public func readExactly(_ count: Int) throws -> [UInt8] {
        while self.buffer.count < count {
            try self.receiveOrThrow("waiting for \(count) bytes")
        }
        let result = Array(self.buffer.prefix(count))
        self.buffer.removeFirst(count)
        return result
    }

    /// Everything until the server closes (or the receive timeout passes).
    public func readUntilClosed() -> [UInt8] {
        while case .data = self.receive() {}
        let result = self.buffer
        self.buffer = []
        return result
    }

    /// Whether the server closes the connection (end of input or reset) before the receive timeout; bytes that
    /// arrive first are kept for later reads.
    public func isClosedByServer() -> Bool {
        while true {
            switch self.receive() {
            case .data: continue
            case .closed: return true
            case .failed(let error): return error == ECONNRESET
            }
        }
    }

    /// True when nothing is buffered and nothing arrives within `seconds`.
    public func isSilent(forSeconds seconds: Double) -> Bool {
        var poller = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return self.buffer.isEmpty && poll(&poller, 1, Int32(seconds * 1000)) == 0
    }

    private enum Received {
        case data
        case closed
        case failed(Int32)
    }

    /// One `recv` into the buffer.
    private func receive() -> Received {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return .closed }
        guard count > 0 else { return .failed(errno) }
        self.buffer += chunk[..<count]
        return .data
    }

    private func receiveOrThrow(_ waitingFor: String) throws {
        switch self.receive() {
        case .data:
            return
        case .closed:
            throw TestClientError(
                description: "connection closed while \(waitingFor); \(self.buffer.count) bytes were buffered")
        case .failed(let error):
            let reason = error == EAGAIN ? "the receive timeout passed" : "recv failed with errno \(error)"
            throw TestClientError(description: "\(reason) while \(waitingFor)")
        }
    }
}
