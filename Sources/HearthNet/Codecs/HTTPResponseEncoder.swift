/// Serialises response heads and chunked framing (RFC 9112 §4 and §7.1); pure bytes, no sockets.
enum HTTPResponseEncoder {
    /// The bytes sent before a request body when the client asked for `Expect: 100-continue`.
    static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The status line of nearly every response, spelled once.
    static let okStatusLine = Array("HTTP/1.1 200 OK\r\n".utf8)

    /// The zero-length chunk (with no trailers) that ends a chunked body.
    static let lastChunk = Array("0\r\n\r\n".utf8)

    /// `HTTP/1.1 <status> <reason>`, the headers in order, then the empty line.
    ///
    /// Complexity: O(total header length).
    static func encodeHead(status: Int, headers: HTTPHeaders, reserving extra: Int = 0) -> [UInt8] {
        Self.encodeHead(status: status, headers: headers, framing: nil, reserving: extra)
    }

    /// The fields a server sets on a response as it sends it, whatever the application put there.
    struct Framing {
        /// `Content-Length`'s value; nil drops the field (a response that never has a body).
        var contentLength: Int?
        /// `Connection`'s value; nil leaves the application's as it is.
        var connection: String?
    }

    /// The head as `encodeHead(status:headers:reserving:)` writes it after `framing` was applied to `headers`: each
    /// of its fields replaces the first of that name in place and drops later ones, or comes last when absent
    /// (`Content-Length` before `Connection`), and `Transfer-Encoding` is dropped; written straight from the
    /// application's headers, with no copy of them to change (each reply's head is written this way).
    ///
    /// Complexity: O(total header length).
    static func encodeHead(status: Int, headers: HTTPHeaders, framing: Framing?, reserving extra: Int = 0)
        -> [UInt8]
    {
        var output: [UInt8] = []
        output.reserveCapacity(64 + headers.count * 32 + extra)
        Self.appendStatusLine(status, to: &output)
        var (wroteLength, wroteConnection) = (false, false)
        for (name, value) in headers {
            guard let framing else {
                Self.appendField(name, value, to: &output)
                continue
            }
            if HTTPHeaders.namesEqual(name, "Content-Length") {
                if let length = framing.contentLength, !wroteLength {
                    Self.appendField(name, String(length), to: &output)
                }
                wroteLength = true
            } else if HTTPHeaders.namesEqual(name, "Transfer-Encoding") {
                continue
            } else if let connection = framing.connection, HTTPHeaders.namesEqual(name, "Connection") {
                if !wroteConnection { Self.appendField(name, connection, to: &output) }
                wroteConnection = true
            } else {
                Self.appendField(name, value, to: &output)
            }
        }
        if let length = framing?.contentLength, !wroteLength {
            Self.appendField("Content-Length", String(length), to: &output)
        }
        if let connection = framing?.connection, !wroteConnection {
            Self.appendField("Connection", connection, to: &output)
        }
        output.append(0x0D)
        output.append(0x0A)
        return output
    }

    /// `HTTP/1.1 <status> <reason>` and CRLF.
    static func appendStatusLine(_ status: Int, to output: inout [UInt8]) {
        if status == 200 {
            output.append(contentsOf: Self.okStatusLine)
        } else {
            output.append(contentsOf: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n".utf8)
        }
    }

    /// `name: value` and CRLF.
    static func appendField(_ name: String, _ value: String, to output: inout [UInt8]) {
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: ":"))
        output.append(0x20)
        // A field value carries no control characters but HTAB (RFC 9110 §5.5): a CR or LF would let the
        // application split the response, a NUL truncates it for some clients. Each becomes a space. A clean value
        // (nearly every one) is copied whole.
        if value.utf8.allSatisfy(Self.isFieldValueByte) {
            output.append(contentsOf: value.utf8)
        } else {
            for byte in value.utf8 { output.append(Self.isFieldValueByte(byte) ? byte : 0x20) }
        }
        output.append(0x0D)
        output.append(0x0A)
    }

    /// Whether `byte` may appear in a field value as sent: visible characters, space, HTAB and UTF-8 bytes.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// A chunk's size line: the size in hex and CRLF; the chunk's data and another CRLF follow it.
    static func chunkSizeLine(_ count: Int) -> [UInt8] {
        Array(String(count, radix: 16).utf8) + [0x0D, 0x0A]
    }

    /// Whether a response with this status never carries a body (RFC 9110 §6.4.1).
    static func forbidsBody(_ status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }

    /// The standard reason phrase, or a generic one by class for unlisted codes.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default:
            switch status / 100 {
            case 1: return "Informational"
            case 2: return "Success"
            case 3: return "Redirection"
            case 4: return "Client Error"
            default: return "Server Error"
            }
        }
    }
}
