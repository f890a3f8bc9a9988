/// Decodes a chunked HTTP/1.1 response body (RFC 9112 §7.1) as it arrives, handing on each piece of payload at
/// once: what `BlockingHTTPClient.download` runs, so a body of any size passes through in bounded memory. A pure
/// state machine; the same bytes give the same payload however they are split.
package struct ChunkedBodyDecoder: Sendable {
    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
        case finished
    }

    /// The longest chunk-size or trailer line accepted.
    static let maximumLineBytes = 4096

    private var state = State.size
    private var line: [UInt8] = []

    package init() {}

    /// Whether the last chunk and the trailers have arrived.
    package var isFinished: Bool {
        if case .finished = self.state { return true }
        return false
    }

    /// Takes the next bytes of the body and hands each piece of payload in them to `payload`; bytes after the end
    /// of the body are ignored.
    /// - Throws: `HTTPClientError` `.malformedResponse` for a framing error; what `payload` throws.
    package mutating func decode(_ bytes: ArraySlice<UInt8>, _ payload: (ArraySlice<UInt8>) throws -> Void) throws {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            switch self.state {
            case .finished:
                return
            case .data(let remaining):
                let end = offset + min(remaining, bytes.endIndex - offset)
                try payload(bytes[offset..<end])
                self.state = remaining == end - offset ? .dataEnd : .data(remaining: remaining - (end - offset))
                offset = end
            case .size, .dataEnd, .trailers:
                guard let line = try self.takeLine(bytes, from: &offset) else { return }
                try self.take(line)
            }
        }
    }

    /// Gathers a line ending in CRLF, across calls; nil while it is incomplete.
    private mutating func takeLine(_ bytes: ArraySlice<UInt8>, from offset: inout Int) throws(HTTPClientError)
        -> [UInt8]?
    {
        while offset < bytes.endIndex {
            let byte = bytes[offset]
            offset += 1
            if byte == 10, self.line.last == 13 {
                defer { self.line = [] }
                return Array(self.line.dropLast())
            }
            self.line.append(byte)
            guard self.line.count <= Self.maximumLineBytes else {
                throw Self.malformed("a chunk-size or trailer line is longer than \(Self.maximumLineBytes) bytes")
            }
        }
        return nil
    }

    /// Acts on a complete line in the state that expects one.
    private mutating func take(_ line: [UInt8]) throws(HTTPClientError) {
        switch self.state {
        case .size:
            let text = String(decoding: line, as: UTF8.self)
            let digits = text.split(separator: ";", maxSplits: 1).first ?? ""
            guard let size = Int(digits.filter { $0 != " " && $0 != "\t" }, radix: 16), size >= 0 else {
                throw Self.malformed("\"\(text)\" is not a chunk size")
            }
            self.state = size == 0 ? .trailers : .data(remaining: size)
        case .dataEnd:
            guard line.isEmpty else { throw Self.malformed("a chunk's data does not end with CRLF") }
            self.state = .size
        case .trailers:
            if line.isEmpty { self.state = .finished }
        case .data, .finished:
            break
        }
    }

    private static func malformed(_ reason: String) -> HTTPClientError {
        HTTPClientError(.malformedResponse, "The answer is not an HTTP/1.1 response: \(reason).")
    }
}
