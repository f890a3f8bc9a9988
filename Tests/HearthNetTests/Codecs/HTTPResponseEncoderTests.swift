import Testing

@testable import HearthNet

@Suite struct HTTPResponseEncoderTests {
    @Test func writesStatusLineWithReasonAndHeadersInOrder() {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain")
        headers.add("X-Evil", "a\r\nInjected: 1")
        headers.add("X-Controls", "n\u{0}u\u{7F}l\tl\u{1B}é")
        let head = String(decoding: HTTPResponseEncoder.encodeHead(status: 404, headers: headers), as: UTF8.self)
        #expect(
            head
                == "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nX-Evil: a  Injected: 1\r\n"
                + "X-Controls: n u l\tl é\r\n\r\n")
    }

    @Test func framesChunksInHexAndSkipsEmptyWrites() {
        let data = [UInt8](repeating: 0x61, count: 26)
        let parts = HTTPChunkedFraming().frame(data)
        #expect(
            String(decoding: parts.joined(), as: UTF8.self) == "1a\r\n" + String(repeating: "a", count: 26) + "\r\n")
        #expect(parts.count == 3 && parts[1] == data, "the data is queued as it is, not copied into the chunk")
        #expect(HTTPChunkedFraming().frame([]).isEmpty)
    }

    @Test func rendersFirebaseErrorBodiesAsEscapedJSON() {
        let response = HTTPResponse.jsonError(status: 400, message: "bad \"x\"\n\\")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"bad \"x\"\n\\"}"#)
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
    }

    @Test func headersLookUpCaseInsensitivelyAndReplaceInPlace() {
        var headers = HTTPHeaders([("A", "1"), ("b", "2"), ("a", "3")])
        #expect(headers["a"] == "1")
        headers.replaceOrAdd("A", "9")
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["A=9", "b=2"])
        headers.replaceOrAdd("C", "4")
        #expect(headers["c"] == "4")
    }

    /// A head written with the server's framing fields is the head of the headers changed as the fields say: each
    /// replaces its name's first field in place and drops the rest, or comes last (`Content-Length`, then
    /// `Connection`); `Transfer-Encoding` goes; a nil `Connection` leaves the application's.
    @Test(
        arguments: [
            [], [("Content-Type", "application/json")],
            [("content-length", "3"), ("X-A", "1"), ("Content-Length", "9"), ("transfer-encoding", "chunked")],
            [("Connection", "close, foo"), ("ETag", "\"x\""), ("connection", "keep-alive")],
            [("X-Evil", "a\r\nb"), ("Connection", "upgrade")],
        ] as [[(String, String)]],
        [(12, "close"), (nil, nil), (0, "keep-alive"), (7, nil)] as [(Int?, String?)]
    )
    func framingFieldsEncodeAsTheChangedHeadersWould(fields: [(String, String)], framing: (Int?, String?)) {
        var changed = HTTPHeaders(fields)
        if let length = framing.0 {
            changed.replaceOrAdd("Content-Length", String(length))
        } else {
            changed.remove("Content-Length")
        }
        changed.remove("Transfer-Encoding")
        if let connection = framing.1 { changed.replaceOrAdd("Connection", connection) }
        let framed = HTTPResponseEncoder.encodeHead(
            status: 200, headers: HTTPHeaders(fields),
            framing: HTTPResponseEncoder.Framing(contentLength: framing.0, connection: framing.1))
        #expect(framed == HTTPResponseEncoder.encodeHead(status: 200, headers: changed))
    }
}
