/// A complete response written once into the bytes the server sends: status line, the application's fields,
/// `Content-Length`, the empty line and the body, exactly as the server would write the same `HTTPResponse` to an
/// HTTP/1.1 keep-alive request. The thread that knows the answer writes it (a REST write's answer, on the thread that
/// completes the write), and the reactor queues the bytes as they are, with no body, head or field copied on the
/// way (the head's fixed part, `HTTPEncodedHead`, is written once for every answer that shares it). An answer the
/// connection must frame differently (HTTP/1.0, `HEAD`, a connection that closes after it) is
/// written from `response` the ordinary way.
public struct HTTPEncodedResponse: Sendable {
    public let status: Int
    /// The application's fields (without the server's framing fields).
    public let headers: HTTPHeaders
    /// The whole response as sent to an HTTP/1.1 keep-alive `GET`, `PUT`, `PATCH`, `POST` or `DELETE`.
    public let bytes: [UInt8]
    /// Where the body begins in `bytes`.
    let bodyStart: Int

    /// Room for `Content-Length`'s digits (an `Int` has at most 19) and the CRLF that ends the field and the head's
    /// empty line; the body is written right behind it, and moved back once its length is known.
    private static let lengthRoom = 19 + 4

    /// Writes the head (`head`, then `Content-Length`), then the body with `writeBody`, which appends it to the
    /// buffer it is given (and only appends: the head before it is not its to change).
    ///
    /// Complexity: O(head length + body length); one allocation when `bodyCapacity` covers the body.
    public init(head: HTTPEncodedHead, bodyCapacity: Int, body writeBody: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.bytes.count + Self.lengthRoom + max(0, bodyCapacity))
        bytes.append(contentsOf: head.bytes)
        let lengthAt = bytes.count
        bytes.append(contentsOf: repeatElement(0x20, count: Self.lengthRoom))
        let written = bytes.count
        writeBody(&bytes)
        guard bytes.count >= written else { preconditionFailure("an encoded response's body writer removed bytes") }
        let length = bytes.count - written
        var digits = 1
        var rest = length / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let bodyStart = lengthAt + digits + 4
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var remaining = length
            for offset in stride(from: lengthAt + digits - 1, through: lengthAt, by: -1) {
                buffer[offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            let end = lengthAt + digits
            (buffer[end], buffer[end + 1], buffer[end + 2], buffer[end + 3]) = (0x0D, 0x0A, 0x0D, 0x0A)
            (base + bodyStart).copyMemory(from: base + written, byteCount: length)
        }
        bytes.removeLast(written - bodyStart)
        self.status = head.status
        self.headers = head.headers
        self.bytes = bytes
        self.bodyStart = bodyStart
    }

    /// The body's bytes (a copy): for the rare answer framed the ordinary way, and for tests.
    public var body: [UInt8] { Array(self.bytes[self.bodyStart...]) }

    /// The same answer as an `HTTPResponse`, which the server frames for any request.
    public var response: HTTPResponse { HTTPResponse(status: self.status, headers: self.headers, body: self.body) }
}

/// The head of answers that share a status and fields, written once up to `Content-Length`'s value (status line,
/// the fields, `Content-Length: `), so each `HTTPEncodedResponse` made from it copies it whole.
public struct HTTPEncodedHead: Sendable {
    public let status: Int
    /// The application's fields.
    public let headers: HTTPHeaders
    /// The status line, the fields and `Content-Length: `.
    let bytes: [UInt8]

    /// The head of answers with `status` and `headers`; nil for a status that never carries a body or fields the
    /// server frames itself (`Content-Length`, `Transfer-Encoding`, `Connection`), which the server writes from an
    /// `HTTPResponse` instead.
    public init?(status: Int, headers: HTTPHeaders) {
        guard !HTTPResponseEncoder.forbidsBody(status), !Self.hasFramingField(headers) else { return nil }
        var bytes: [UInt8] = []
        HTTPResponseEncoder.appendStatusLine(status, to: &bytes)
        for (name, value) in headers { HTTPResponseEncoder.appendField(name, value, to: &bytes) }
        bytes.append(contentsOf: "Content-Length: ".utf8)
        self.status = status
        self.headers = headers
        self.bytes = bytes
    }

    /// Whether `headers` has a field whose value the server sets as it sends a response.
    private static func hasFramingField(_ headers: HTTPHeaders) -> Bool {
        headers.contains("Content-Length") || headers.contains("Transfer-Encoding") || headers.contains("Connection")
    }
}
