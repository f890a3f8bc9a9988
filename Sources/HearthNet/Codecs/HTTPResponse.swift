/// A response's status, header fields and body, without transfer framing: what the application produces (the server
/// adds framing headers when it sends it) and what `BlockingHTTPClient` returns (chunked encoding removed).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid sequences replaced).
    public var text: String { String(decoding: self.body, as: UTF8.self) }

    /// A Firebase-style error response: `{"error":"<message>"}` as UTF-8 JSON.
    public static func jsonError(status: Int, message: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json; charset=utf-8")
        var body = Array("{\"error\":\"".utf8)
        body.reserveCapacity(message.utf8.count + 16)
        Self.appendJSONEscaped(message, to: &body)
        body.append(contentsOf: "\"}".utf8)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// Appends the JSON string escape of `text` (without quotes): `"`, `\` and control characters escaped.
    static func appendJSONEscaped(_ text: String, to output: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
    }
}
