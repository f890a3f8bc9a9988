import Foundation

/// A deliberately simple blocking HTTP/1.1 client for tests: one keep-alive connection, raw control over what is
/// sent (it is a `LoopbackConnection`), and readers for ordinary responses, chunked streams and server-sent events.
public final class HTTPTestClient: LoopbackConnection {
    /// One response as read: status, headers in order, body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first header called `name`, ignoring case.
        public func header(_ name: String) -> String? {
            self.headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: self.body, as: UTF8.self) }
    }

    public let port: Int
    /// Event-stream text received but not yet returned by `readEvent()`.
    private var pendingEvents = ""

    /// Connects to `127.0.0.1:port`; `receiveBufferBytes` shrinks the kernel receive buffer, to play a slow reader.
    public override init(port: Int, timeoutSeconds: Int = 60, receiveBufferBytes: Int? = nil) throws {
        self.port = port
        try super.init(port: port, timeoutSeconds: timeoutSeconds, receiveBufferBytes: receiveBufferBytes)
    }

    /// Sends a request and reads its response.
    public func request(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> Response {
        try self.send(Self.requestBytes(method, target, body: body.map { Array($0.utf8) }, headers: headers))
        return try self.readResponse(method: method)
    }

    /// A request with `Host` and, when there is a body, `Content-Length`.
    public static func requestBytes(
        _ method: String, _ target: String, body: [UInt8]?, headers: [(String, String)] = []
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Reads one response. The body is framed by `Content-Length`, by chunked encoding (read to the last chunk) or
    /// by the server closing; there is none for `HEAD`, 1xx, 204 and 304. An event stream
    /// (`Content-Type: text/event-stream`) never ends, so only its head is read: follow with `readEvent()`.
    public func readResponse(method: String = "GET") throws -> Response {
        var response = try self.readResponseHead()
        if method == "HEAD" || response.status < 200 || response.status == 204 || response.status == 304 {
            return response
        }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            if response.header("Content-Type")?.hasPrefix("text/event-stream") == true { return response }
            response.body = try self.readChunks().flatMap { $0 }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try self.readExactly(length)
        } else {
            response.body = self.readUntilClosed()
        }
        return response
    }

    /// Reads only a response's status line and headers, for a body the test reads itself (a held stream).
    public func readResponseHead() throws -> Response {
        let headText = String(decoding: try self.readUntil("\r\n\r\n").dropLast(4), as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestClientError(description: "bad status line in \(headText)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Response(status: status, headers: headers, body: [])
    }

    /// Reads chunks of a chunked body until the last (empty) one or until `limit` chunks; returns each payload.
    public func readChunks(limit: Int = .max) throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while chunks.count < limit {
            let sizeLine = String(decoding: try self.readUntil("\r\n").dropLast(2), as: UTF8.self)
            guard let size = Int(sizeLine.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw TestClientError(description: "bad chunk size \(sizeLine.debugDescription)")
            }
            if size == 0 {
                _ = try self.readUntil("\r\n")
                break
            }
            chunks.append(try self.readExactly(size))
            _ = try self.readExactly(2)
        }
        return chunks
    }

    /// Reads the next server-sent event of an event stream: its `event:` name and `data:` line.
    public func readEvent() throws -> (event: String, data: String) {
        while true {
            if let end = self.pendingEvents.range(of: "\n\n") {
                let text = self.pendingEvents[..<end.lowerBound]
                self.pendingEvents = String(self.pendingEvents[end.upperBound...])
                var event = ""
                var data = ""
                for line in text.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                return (event, data)
            }
            guard let chunk = try self.readChunks(limit: 1).first else {
                throw TestClientError(description: "the event stream ended")
            }
            self.pendingEvents += String(decoding: chunk, as: UTF8.self)
        }
    }
}
