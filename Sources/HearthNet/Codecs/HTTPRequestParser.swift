/// An incremental HTTP/1.1 request parser (RFC 9112): a pure state machine with no I/O, fed arbitrary chunks.
///
/// The caller appends bytes as they arrive and calls `next()` until it returns `.needMoreData`. Each request yields
/// `.head` first; the caller then decides the body limit with `acceptBody(limit:)` (so an application can lift it
/// for imports, and the server can answer `100 Continue` in between), and later receives the whole body as `.body`.
/// Bytes after a request stay buffered for the next one, which is how pipelining works. Any error is final: the
/// parser keeps returning it, because the next request's start is unknowable.
///
/// Complexity: every byte is scanned a constant number of times, so parsing is O(n) in the input whatever the chunk
/// sizes; the body is appended into one buffer reserved from `Content-Length`.
package struct HTTPRequestParser {
    /// What the parser produced from the bytes so far.
    package enum Event {
        case needMoreData
        case head(HTTPRequestHead)
        case body([UInt8])
        case failure(HTTPParserError)
    }

    enum State {
        /// Looking for the end of a head; `scanned` bytes after the read index hold no terminating empty line.
        case head(scanned: Int)
        /// A head was returned; `acceptBody(limit:)` must be called before `next()`.
        case awaitingBodyLimit(HTTPRequestHead.Framing)
        case lengthBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(scanned: Int)
        case bodyComplete
        case failed(HTTPParserError)
    }

    /// Chunk-size lines longer than this (extensions included) are refused.
    static let maximumChunkLineBytes = 4096
    /// The most body capacity reserved up front from a declared `Content-Length`.
    static let maximumReservedBodyBytes = 64 * 1024 * 1024

    let maximumHeaderBytes: Int
    private(set) var state: State = .head(scanned: 0)
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var body: [UInt8] = []
    private var bodyLimit = Int.max
    private var chunkedTotal = 0

    package init(maximumHeaderBytes: Int) {
        self.maximumHeaderBytes = maximumHeaderBytes
    }

    /// Bytes received but not yet consumed by a completed step.
    var bufferedByteCount: Int { self.buffer.count - self.readIndex }

    /// Bytes held for the connection: buffered input and the body read so far.
    var heldByteCount: Int { self.bufferedByteCount + self.body.count }

    /// Whether the parser sits between requests with nothing buffered (an idle keep-alive connection).
    var isIdle: Bool {
        if case .head(scanned: 0) = self.state { return self.bufferedByteCount == 0 }
        return false
    }

    /// Whether the parser is still waiting for a complete head (header timeouts apply).
    var isReadingHead: Bool {
        if case .head = self.state { return true }
        return false
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { self.append($0) }
    }

    /// Takes `bytes` in; a body being read by length goes straight into the body buffer without an extra copy.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var input = bytes[...]
        if case .lengthBody(let remaining) = self.state, self.readIndex == self.buffer.count {
            let taken = min(remaining, input.count)
            self.body.append(contentsOf: input.prefix(taken))
            input = input.dropFirst(taken)
            self.state = remaining == taken ? .bodyComplete : .lengthBody(remaining: remaining - taken)
        }
        guard !input.isEmpty else { return }
        self.compact()
        self.buffer.append(contentsOf: input)
    }

    /// Everything buffered after the last consumed step, handed over for an upgraded connection.
    mutating func takeBufferedBytes() -> [UInt8] {
        let rest = Array(self.buffer[self.readIndex...])
        self.buffer.removeAll()
        self.readIndex = 0
        return rest
    }

    /// Sets the body limit for the head just returned; returns the error to answer with if the declared length
    /// already exceeds it.
    package mutating func acceptBody(limit: Int) -> HTTPParserError? {
        guard case .awaitingBodyLimit(let framing) = self.state else {
            preconditionFailure("acceptBody(limit:) called without a pending head in state \(self.state)")
        }
        self.bodyLimit = limit
        self.body = []
        self.chunkedTotal = 0
        switch framing {
        case .none, .length(0):
            self.state = .bodyComplete
        case .length(let length):
            guard length <= limit else {
                return self.fail(HTTPParserError(.bodyTooLarge, HTTPParserError.bodyTooLargeMessage))
            }
            self.body.reserveCapacity(min(length, Self.maximumReservedBodyBytes))
            self.state = .lengthBody(remaining: length)
        case .chunked:
            self.state = .chunkSize
        }
        return nil
    }

    /// Advances as far as the buffered bytes allow and reports the next event.
    package mutating func next() -> Event {
        while true {
            switch self.state {
            case .head(let scanned):
                return self.parseHead(scanned: scanned)
            case .awaitingBodyLimit:
                preconditionFailure("next() called before acceptBody(limit:) in state \(self.state)")
            case .lengthBody(let remaining):
                let available = self.bufferedByteCount
                guard available > 0 else { return .needMoreData }
                let taken = min(remaining, available)
                self.body.append(contentsOf: self.buffer[self.readIndex..<(self.readIndex + taken)])
                self.readIndex += taken
                self.state = remaining == taken ? .bodyComplete : .lengthBody(remaining: remaining - taken)
            case .chunkSize:
                if let event = self.parseChunkSize() { return event }
            case .chunkData(let remaining):
                let available = self.bufferedByteCount
                guard available > 0 else { return .needMoreData }
                let taken = min(remaining, available)
                self.body.append(contentsOf: self.buffer[self.readIndex..<(self.readIndex + taken)])
                self.readIndex += taken
                self.state = remaining == taken ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
            case .chunkDataEnd:
                guard let lineEnd = self.consumeLineBreak() else { return .needMoreData }
                guard lineEnd else { return .failure(self.fail(.malformed("A chunk's data must end with CRLF."))) }
                self.state = .chunkSize
            case .trailers(let scanned):
                if let event = self.parseTrailers(scanned: scanned) { return event }
            case .bodyComplete:
                let completed = self.body
                self.body = []
                self.state = .head(scanned: 0)
                return .body(completed)
            case .failed(let error):
                return .failure(error)
            }
        }
    }

    // MARK: - Steps

    private mutating func parseHead(scanned: Int) -> Event {
        var scanned = scanned
        if scanned == 0 {
            // RFC 9112 §2.2: ignore empty lines before the request line.
            while self.readIndex < self.buffer.count {
                guard let isLineBreak = self.consumeLineBreak() else { return .needMoreData }
                if !isLineBreak { break }
            }
        }
        guard let end = self.findBlockEnd(scanned: &scanned) else {
            if self.bufferedByteCount > self.maximumHeaderBytes { return .failure(self.fail(Self.headTooLarge())) }
            self.state = .head(scanned: scanned)
            return .needMoreData
        }
        guard end + 1 - self.readIndex <= self.maximumHeaderBytes else {
            return .failure(self.fail(Self.headTooLarge()))
        }
        let block = self.buffer[self.readIndex...end]
        self.readIndex = end + 1
        do {
            let head = try HTTPRequestParser.makeHead(block)
            self.state = .awaitingBodyLimit(head.framing)
            return .head(head)
        } catch {
            return .failure(self.fail(error))
        }
    }

    /// Returns an event to stop with, or `nil` after moving to the next state.
    private mutating func parseChunkSize() -> Event? {
        guard let lineFeed = self.buffer[self.readIndex...].firstIndex(of: 0x0A) else {
            if self.bufferedByteCount > Self.maximumChunkLineBytes {
                return .failure(
                    self.fail(.malformed("A chunk-size line is longer than \(Self.maximumChunkLineBytes) bytes."))
                )
            }
            return .needMoreData
        }
        let line = self.buffer[self.readIndex..<lineFeed]
        self.readIndex = lineFeed + 1
        guard let size = Self.chunkSize(line) else {
            return .failure(self.fail(.malformed("A chunk-size line is not a hexadecimal size.")))
        }
        let (total, overflow) = self.chunkedTotal.addingReportingOverflow(size)
        guard !overflow, total <= self.bodyLimit else {
            return .failure(self.fail(HTTPParserError(.bodyTooLarge, HTTPParserError.bodyTooLargeMessage)))
        }
        self.chunkedTotal = total
        self.state = size == 0 ? .trailers(scanned: 0) : .chunkData(remaining: size)
        return nil
    }

    private mutating func parseTrailers(scanned: Int) -> Event? {
        if scanned == 0 {
            guard let isLineBreak = self.consumeLineBreak() else { return .needMoreData }
            if isLineBreak {
                self.state = .bodyComplete
                return nil
            }
        }
        var scanned = scanned
        guard let end = self.findBlockEnd(scanned: &scanned) else {
            if self.bufferedByteCount > self.maximumHeaderBytes { return .failure(self.fail(Self.headTooLarge())) }
            self.state = .trailers(scanned: scanned)
            return .needMoreData
        }
        let block = self.buffer[self.readIndex...end]
        self.readIndex = end + 1
        do {
            try Self.checkTrailers(block)
        } catch {
            return .failure(self.fail(error))
        }
        self.state = .bodyComplete
        return nil
    }

    // MARK: - Buffer helpers

    /// Consumes a CRLF or LF at the read index: `true` if one was there, `false` if another byte was, `nil` if more
    /// bytes are needed to tell. A lone CR followed by something else counts as "another byte".
    private mutating func consumeLineBreak() -> Bool? {
        guard self.readIndex < self.buffer.count else { return nil }
        switch self.buffer[self.readIndex] {
        case 0x0A:
            self.readIndex += 1
            return true
        case 0x0D:
            guard self.readIndex + 1 < self.buffer.count else { return nil }
            guard self.buffer[self.readIndex + 1] == 0x0A else { return false }
            self.readIndex += 2
            return true
        default:
            return false
        }
    }

    /// Finds the LF ending the first empty line after the read index (the block's terminator), resuming after
    /// `scanned` bytes already searched.
    private func findBlockEnd(scanned: inout Int) -> Int? {
        var index = self.readIndex + scanned
        while let lineFeed = self.buffer[index...].firstIndex(of: 0x0A) {
            let previous = lineFeed - 1
            if previous >= self.readIndex {
                if self.buffer[previous] == 0x0A { return lineFeed }
                if self.buffer[previous] == 0x0D, previous - 1 >= self.readIndex, self.buffer[previous - 1] == 0x0A {
                    return lineFeed
                }
            }
            index = lineFeed + 1
        }
        // Keep the last two bytes unscanned so a terminator split across appends is still found.
        scanned = max(0, self.buffer.count - self.readIndex - 2)
        return nil
    }

    private mutating func compact() {
        if self.readIndex == self.buffer.count {
            self.buffer.removeAll(keepingCapacity: true)
            self.readIndex = 0
        } else if self.readIndex >= 4096, self.readIndex * 2 >= self.buffer.count {
            self.buffer.removeFirst(self.readIndex)
            self.readIndex = 0
        }
    }

    private mutating func fail(_ error: HTTPParserError) -> HTTPParserError {
        self.state = .failed(error)
        self.body = []
        return error
    }

    private static func headTooLarge() -> HTTPParserError {
        HTTPParserError(.headTooLarge, "The request line and headers are too large; send fewer or shorter headers.")
    }

    /// Parses `1a;ext=1` (optional extensions and whitespace ignored) into a size; `nil` when not valid hex.
    private static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let value = HTTPTargetDecoder.hexValue(line[index]) {
            guard digits < 15 else { return nil }
            size = size << 4 | Int(value)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        let rest = line[index...]
        let trimmed = rest.last == 0x0D ? rest.dropLast() : rest
        guard trimmed.allSatisfy({ $0 != 0x0D }) else { return nil }
        guard let first = trimmed.first else { return size }
        return first == UInt8(ascii: ";") || first == 0x20 || first == 0x09 ? size : nil
    }
}
