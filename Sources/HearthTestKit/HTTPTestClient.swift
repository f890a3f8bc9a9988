import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately simple blocking HTTP/1.1 client for tests: one keep-alive connection, raw control over what is
/// sent, and readers for both ordinary responses and server-sent events.
public final class HTTPTestClient {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            self.headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        public var text: String { String(decoding: self.body, as: UTF8.self) }
    }

    public struct ClientError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    public let port: Int

    public init(port: Int, timeoutSeconds: Int = 30) throws {
        self.port = port
        let fd = try LoopbackSocket.connect(port: port, timeoutSeconds: timeoutSeconds)
        self.descriptor = fd
    }

    deinit { close(self.descriptor) }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(self.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw ClientError(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Sends a request and reads its response.
    public func request(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> Response {
        try self.send(Self.requestBytes(method, target, body: body.map { Array($0.utf8) }, headers: headers))
        return try self.readResponse(method: method)
    }

    public static func requestBytes(
        _ method: String, _ target: String, body: [UInt8]?, headers: [(String, String)] = []
    )
        -> [UInt8]
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Reads one response (Content-Length, chunked, or until close).
    public func readResponse(method: String = "GET") throws -> Response {
        let headEnd = try self.readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: self.buffer[..<headEnd], as: UTF8.self)
        self.buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line in \(head)")
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = Response(status: status, headers: headers, body: [])
        if method == "HEAD" || status == 204 || status == 304 || status == 101 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            try self.fill(atLeast: length)
            response.body = Array(self.buffer[..<length])
            self.buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            return response
        } else {
            while (try? self.fill(atLeast: self.buffer.count + 1)) != nil {}
            response.body = self.buffer
            self.buffer = []
        }
        return response
    }

    /// Reads the next server-sent event of a chunked event stream: `(event name, data line)`.
    public func readEvent() throws -> (event: String, data: String) {
        while true {
            let sizeEnd = try self.readUntil(Array("\r\n".utf8))
            let sizeText = String(decoding: self.buffer[..<sizeEnd], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16) else {
                throw ClientError(description: "bad chunk size \(sizeText)")
            }
            self.buffer.removeFirst(sizeEnd + 2)
            try self.fill(atLeast: size + 2)
            let chunk = String(decoding: self.buffer[..<size], as: UTF8.self)
            self.buffer.removeFirst(size + 2)
            self.pendingEvents += chunk
            if let end = self.pendingEvents.range(of: "\n\n") {
                let text = String(self.pendingEvents[..<end.lowerBound])
                self.pendingEvents = String(self.pendingEvents[end.upperBound...])
                var event = ""
                var data = ""
                for line in text.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                return (event, data)
            }
        }
    }

    private var pendingEvents = ""

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if self.buffer.count >= marker.count {
                for index in searchFrom...(self.buffer.count - marker.count)
                where self.buffer[index..<(index + marker.count)].elementsEqual(marker) {
                    return index
                }
                searchFrom = self.buffer.count - marker.count + 1
            }
            try self.fill(atLeast: self.buffer.count + 1)
        }
    }

    private func fill(atLeast count: Int) throws {
        try LoopbackSocket.receive(self.descriptor, into: &self.buffer, atLeast: count)
    }

    /// Reads everything the server sends until it closes the connection.
    /// - Throws: when the receive timeout passes (or the read fails) before the close.
    public func readUntilClosed() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
            if received == 0 {
                defer { self.buffer = [] }
                return self.buffer
            }
            guard received > 0 else {
                throw ClientError(description: "no close from the server before the timeout (errno \(errno))")
            }
            self.buffer += chunk[..<received]
        }
    }

    /// Closes the connection from this side (both directions), as a browser does when it drops a request; the
    /// descriptor itself is released when the client is.
    public func disconnect() {
        shutdown(self.descriptor, Int32(SHUT_RDWR))
    }

    /// True once the server has closed the connection (reads return 0).
    public func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(self.descriptor, &byte, 1, 0) == 0
    }
}
