/// Reads one HTTP/1.1 response out of the bytes a client has received so far, for `BlockingHTTPClient`.
///
/// It is pure and socket-free: the client calls it after every read with everything received, and it answers
/// `nil` until the response is complete. The body is framed by chunked encoding, by `Content-Length`, or by the
/// server closing the connection; there is none for a `HEAD` request or a 1xx, 204 or 304 status. The same bytes
/// give the same response whether they arrived at once or one by one.
package enum HTTPResponseReader {
    /// The most header bytes accepted before the response is refused as malformed.
    package static let maximumHeadBytes = 64 * 1024

    /// The response in `bytes`, or `nil` when more bytes are needed.
    ///
    /// - Parameters:
    ///   - bytes: everything received on the connection so far.
    ///   - atEnd: whether the server has closed its side (no more bytes will come).
    ///   - method: the request's method (a response to `HEAD` has no body).
    /// - Throws: `HTTPClientError.Code.malformedResponse` when the bytes cannot be an HTTP/1.1 response, or the
    ///   server closed before the response was complete.
    package static func read(_ bytes: [UInt8], atEnd: Bool, method: String) throws(HTTPClientError)
        -> HTTPResponse?
    {
        guard let headEnd = Self.endOfHead(bytes) else {
            if atEnd || bytes.count > Self.maximumHeadBytes {
                throw Self.malformed("the server sent no complete response head (\(bytes.count) bytes)")
            }
            return nil
        }
        var response = try Self.head(bytes[..<headEnd])
        let body = bytes[(headEnd + 4)...]
        if method == "HEAD" || response.status < 200 || response.status == 204 || response.status == 304 {
            return response
        }
        if response.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            guard let decoded = try Self.chunks(body) else {
                if atEnd { throw Self.malformed("the server closed in the middle of a chunked body") }
                return nil
            }
            response.body = decoded
        } else if let lengthText = response.headers["Content-Length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw Self.malformed("Content-Length \"\(lengthText)\" is not a byte count")
            }
            guard body.count >= length else {
                if atEnd { throw Self.malformed("the server closed after \(body.count) of \(length) body bytes") }
                return nil
            }
            response.body = Array(body.prefix(length))
        } else {
            guard atEnd else { return nil }
            response.body = Array(body)
        }
        return response
    }

    /// The response head in `bytes` and the offset where its body starts, or `nil` when the head is incomplete
    /// (for a client that reads the body itself, as `BlockingHTTPClient.download` does).
    /// - Throws: `HTTPClientError.Code.malformedResponse` when the head is not HTTP/1.1 or too long.
    package static func head(in bytes: [UInt8]) throws(HTTPClientError) -> (response: HTTPResponse, bodyStart: Int)? {
        guard let headEnd = Self.endOfHead(bytes) else {
            if bytes.count > Self.maximumHeadBytes {
                throw Self.malformed("the server sent no complete response head (\(bytes.count) bytes)")
            }
            return nil
        }
        return (try Self.head(bytes[..<headEnd]), headEnd + 4)
    }

    /// Where the head ends: the offset of the `\r\n\r\n` that closes it.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The status line and header fields.
    private static func head(_ bytes: ArraySlice<UInt8>) throws(HTTPClientError) -> HTTPResponse {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first.map { $0.split(separator: " ", maxSplits: 2) } ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), statusLine[1].count == 3,
            let status = Int(statusLine[1])
        else {
            throw Self.malformed("\"\(lines.first ?? "")\" is not an HTTP/1.1 status line")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                throw Self.malformed("the header line \"\(line)\" has no colon")
            }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces)
        }
        return HTTPResponse(status: status, headers: headers)
    }

    /// The payload of a complete chunked body, or `nil` when its last chunk has not arrived yet.
    private static func chunks(_ bytes: ArraySlice<UInt8>) throws(HTTPClientError) -> [UInt8]? {
        var payload: [UInt8] = []
        var offset = bytes.startIndex
        while true {
            guard let lineEnd = Self.lineEnd(bytes, from: offset) else { return nil }
            let sizeText = String(decoding: bytes[offset..<lineEnd], as: UTF8.self)
            let digits = sizeText.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces } ?? ""
            guard let size = Int(digits, radix: 16), size >= 0 else {
                throw Self.malformed("\"\(sizeText)\" is not a chunk size")
            }
            offset = lineEnd + 2
            if size == 0 { return Self.trailersEnd(bytes, from: offset) == nil ? nil : payload }
            guard bytes.endIndex - offset >= size + 2 else { return nil }
            payload.append(contentsOf: bytes[offset..<(offset + size)])
            offset += size + 2
        }
    }

    /// The end of the trailer section that follows the last chunk (an empty line), if it has arrived.
    private static func trailersEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var offset = start
        while let lineEnd = Self.lineEnd(bytes, from: offset) {
            if lineEnd == offset { return lineEnd + 2 }
            offset = lineEnd + 2
        }
        return nil
    }

    /// The offset of the next `\r\n` at or after `start`.
    private static func lineEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.endIndex {
            if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private static func malformed(_ reason: String) -> HTTPClientError {
        HTTPClientError(.malformedResponse, "The answer is not an HTTP/1.1 response: \(reason).")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
