import Testing

@testable import HearthNet

/// An answer written once into its bytes (`HTTPEncodedResponse`) is byte for byte what the server writes for the same
/// `HTTPResponse` to an HTTP/1.1 keep-alive request: the head with its framing, then the body.
@Suite struct HTTPEncodedResponseTests {
    /// The bytes the server writes for `response` to an HTTP/1.1 keep-alive request that is not `HEAD`
    /// (`HTTPConnectionHandler.enqueue`): the head with `Content-Length` and no `Connection`, then the body.
    private static func framed(_ response: HTTPResponse) -> [UInt8] {
        let framing = HTTPResponseEncoder.Framing(contentLength: response.body.count, connection: nil)
        return HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers, framing: framing)
            + response.body
    }

    /// Headers of the kinds answers carry: none, a write's two JSON fields, an ETag, repeated names, and values with
    /// control characters the encoder turns into spaces.
    private static let headerSets: [HTTPHeaders] = [
        HTTPHeaders(),
        HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("Access-Control-Allow-Origin", "*")]),
        HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("ETag", "\"abc+/=\"")]),
        HTTPHeaders([("X-A", "1"), ("x-a", "2"), ("X-Empty", "")]),
        HTTPHeaders([("X-Evil", "a\r\nInjected: 1"), ("X-Controls", "n\u{0}u\u{7F}l\tl\u{1B}é")]),
    ]

    /// Body lengths on each side of every change in `Content-Length`'s digit count up to six digits, and 0.
    private static let bodyLengths = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9999, 10000, 99999, 100_000, 123_457]

    /// Every status a REST answer or error has (and unlisted ones), every header set and body length: the same bytes
    /// as the head-then-body encoding, whether the body capacity guessed is short, exact or generous.
    @Test func matchesTheHeadThenBodyEncoding() throws {
        let statuses = [200, 201, 400, 401, 403, 404, 405, 409, 411, 412, 413, 429, 500, 503, 299, 499, 599]
        var checked = 0
        for status in statuses {
            for headers in Self.headerSets {
                for length in Self.bodyLengths {
                    let body = (0..<length).map { UInt8(truncatingIfNeeded: 0x20 + ($0 * 7 + status) % 95) }
                    for capacity in [0, length, length * 2 + 64] {
                        let head = try #require(HTTPEncodedHead(status: status, headers: headers))
                        let encoded = HTTPEncodedResponse(head: head, bodyCapacity: capacity) { $0 += body }
                        let expected = Self.framed(HTTPResponse(status: status, headers: headers, body: body))
                        #expect(encoded.bytes == expected, "status \(status), \(length) bytes")
                        #expect(encoded.body == body && encoded.status == status)
                        #expect(Self.framed(encoded.response) == expected)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 17 * 5 * 15 * 3)
    }

    /// Firebase's error bodies (`HTTPResponse.jsonError`), escapes and all, encode as their response does.
    @Test func matchesErrorAnswers() throws {
        let messages = ["Permission denied", "Invalid data; couldn't parse JSON object.", "bad \"x\"\n\\\u{1}", ""]
        for (index, message) in messages.enumerated() {
            let error = HTTPResponse.jsonError(status: 400 + index, message: message)
            let head = try #require(HTTPEncodedHead(status: error.status, headers: error.headers))
            let encoded = HTTPEncodedResponse(head: head, bodyCapacity: 8) { $0 += error.body }
            #expect(encoded.bytes == Self.framed(error))
        }
    }

    /// A body written in several appends (as a PATCH's echo is) is one body.
    @Test func takesABodyWrittenInParts() throws {
        let head = try #require(HTTPEncodedHead(status: 200, headers: HTTPHeaders()))
        let encoded = HTTPEncodedResponse(head: head, bodyCapacity: 2) { body in
            for part in ["{", "\"a\":1", ",", "\"b\":[true,null]", "}"] { body += Array(part.utf8) }
        }
        #expect(
            String(decoding: encoded.bytes, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Length: 23\r\n\r\n{\"a\":1,\"b\":[true,null]}")
    }

    /// A status that never carries a body, or fields the server frames itself, are left to the ordinary encoding:
    /// no head is made for them.
    @Test func declinesWhatTheServerFramesItself() {
        for status in [100, 101, 204, 304] {
            #expect(HTTPEncodedHead(status: status, headers: HTTPHeaders()) == nil)
        }
        for name in ["Content-Length", "transfer-encoding", "CONNECTION"] {
            #expect(
                HTTPEncodedHead(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain"), (name, "close")]))
                    == nil)
        }
    }

    /// One head serves many answers: each has its own body and length, and the head is unchanged.
    @Test func reusesAHead() throws {
        let head = try #require(HTTPEncodedHead(status: 201, headers: HTTPHeaders([("ETag", "\"e\"")])))
        for length in Self.bodyLengths {
            let body = [UInt8](repeating: UInt8(ascii: "b"), count: length)
            let encoded = HTTPEncodedResponse(head: head, bodyCapacity: 0) { $0 += body }
            #expect(encoded.bytes == Self.framed(HTTPResponse(status: 201, headers: head.headers, body: body)))
        }
    }
}
