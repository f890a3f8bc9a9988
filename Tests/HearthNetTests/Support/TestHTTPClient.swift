import Foundation
import Glibc

/// Why a test client call failed.
struct TestClientError: Error, CustomStringConvertible {
    var description: String
}

/// One parsed response as the test client read it.
struct TestResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        self.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: self.body, as: UTF8.self) }
}

/// A blocking HTTP/1.1 client over plain Glibc sockets, for loopback tests (never used on a Swift concurrency
/// thread: see `onClientThread`).
final class TestHTTPClient {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(port: Int, receiveTimeoutSeconds: Int = 30) throws {
        self.descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard self.descriptor >= 0 else { throw TestClientError(description: "socket failed") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(self.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(self.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(self.descriptor)
            throw TestClientError(description: "connect to port \(port) failed: errno \(errno)")
        }
    }

    deinit {
        Glibc.close(self.descriptor)
    }

    func send(_ text: String) throws {
        try self.send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(self.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    func shutdownWrite() {
        shutdown(self.descriptor, Int32(SHUT_WR))
    }

    /// Reads one response: head, then a body framed by Content-Length or chunked encoding (none for 1xx/204/304
    /// or when `isHead`).
    func readResponse(isHead: Bool = false) throws -> TestResponse {
        let headText = String(decoding: try self.readUntil("\r\n\r\n".utf8), as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw TestClientError(description: "empty head") }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestClientError(description: "bad status line in \(headText)")
        }
        let headers = lines.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        if isHead || status < 200 || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding") == "chunked" {
            response.body = try self.readChunkedBody()
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try self.readExactly(length)
        } else {
            response.body = self.readUntilClosed()
        }
        return response
    }

    /// Reads chunks until the last one, returning each chunk's payload.
    func readChunks(limit: Int = .max) throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while chunks.count < limit {
            let sizeLine = String(decoding: try self.readUntil("\r\n".utf8), as: UTF8.self)
            guard let size = Int(sizeLine.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) else {
                throw TestClientError(description: "bad chunk size \(sizeLine)")
            }
            if size == 0 {
                _ = try self.readUntil("\r\n".utf8)
                break
            }
            chunks.append(try self.readExactly(size))
            _ = try self.readExactly(2)
        }
        return chunks
    }

    private func readChunkedBody() throws -> [UInt8] {
        try self.readChunks().flatMap { $0 }
    }

    func readExactly(_ count: Int) throws -> [UInt8] {
        while self.pending.count < count {
            guard try self.fill() else { throw TestClientError(description: "closed before \(count) bytes") }
        }
        let result = Array(self.pending.prefix(count))
        self.pending.removeFirst(count)
        return result
    }

    /// Reads up to and including `delimiter`.
    func readUntil(_ delimiter: String.UTF8View) throws -> [UInt8] {
        let pattern = Array(delimiter)
        while true {
            if let range = self.pending.firstRange(of: pattern) {
                let result = Array(self.pending[..<range.upperBound])
                self.pending.removeFirst(range.upperBound)
                return result
            }
            guard try self.fill() else {
                throw TestClientError(
                    description: "closed while waiting for delimiter; got \(self.pending.count) bytes"
                )
            }
        }
    }

    /// Everything until the server closes (or the receive timeout).
    func readUntilClosed() -> [UInt8] {
        while (try? self.fill()) == true {}
        let result = self.pending
        self.pending = []
        return result
    }

    /// Whether the server closed the connection (EOF or reset) before the receive timeout.
    func isClosedByServer() -> Bool {
        while true {
            var byte: UInt8 = 0
            let count = recv(self.descriptor, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
            self.pending.append(byte)
        }
    }

    /// Reads more bytes; `false` on EOF. Throws on timeout or error.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        guard count > 0 else { throw TestClientError(description: "recv failed: errno \(errno)") }
        self.pending.append(contentsOf: buffer[0..<count])
        return true
    }
}

/// Runs blocking client code on its own thread, so loopback tests never block Swift's cooperative pool (which has
/// only as many threads as cores).
func onClientThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}

/// Sleeps on a helper thread without blocking the cooperative pool and without observing cancellation.
func uncancellableSleep(seconds: Double) async {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            continuation.resume()
        }
        thread.start()
    }
}
