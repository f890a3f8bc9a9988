import HearthCore

/// Request-line and header-field rules (RFC 9112 §3 and §5, RFC 9110 §5.5), applied to one complete head block.
extension HTTPRequestParser {
    /// Builds the head from its block of lines (request line, fields, terminating empty line) in one walk: each line
    /// is split, checked and its field added as it is reached, and the fields that frame the request (`Host`,
    /// `Content-Length`, `Transfer-Encoding`, `Connection`, `Expect`) are noted on the way (`HeadFacts`), with no
    /// array of lines and no walk over the fields afterwards. The checks and their order are the rules': a bare CR
    /// anywhere before the empty line wins over any other error (`HeadLines.error(after:)`), then the request line,
    /// the fields in order, the framing, the `Host` rule and the target.
    ///
    /// Complexity: O(n) in the block size.
    static func makeHead(_ block: ArraySlice<UInt8>) throws(HTTPParserError) -> HTTPRequestHead {
        try block.withUnsafeBufferPointer { (bytes) throws(HTTPParserError) in try Self.makeHead(bytes) }
    }

    private static func makeHead(_ block: UnsafeBufferPointer<UInt8>) throws(HTTPParserError) -> HTTPRequestHead {
        var lines = HeadLines(block)
        guard let requestLine = try lines.next() else { throw .malformed("The request line is missing.") }
        let requestTarget: RequestTarget
        do throws(HTTPParserError) {
            requestTarget = try Self.parseRequestLine(UnsafeBufferPointer(rebasing: block[requestLine]))
        } catch {
            throw try lines.error(after: error)
        }
        let (method, target, version) = (requestTarget.method, requestTarget.target, requestTarget.version)
        let isHTTP11 = version == "HTTP/1.1"
        var headers = HTTPHeaders()
        // One field per line after the request line at most: room for them all at once.
        headers.reserveCapacity(max(0, ByteWords.count(of: 0x0A, in: block) - 2))
        var facts = HeadFacts()
        while let line = try lines.next() {
            let field: (name: Range<Int>, value: Range<Int>)
            do throws(HTTPParserError) {
                field = try Self.field(UnsafeBufferPointer(rebasing: block[line]), at: line.lowerBound)
            } catch {
                throw try lines.error(after: error)
            }
            let nameBytes = UnsafeBufferPointer(rebasing: block[field.name])
            let valueBytes = UnsafeBufferPointer(rebasing: block[field.value])
            let value = String(decoding: valueBytes, as: UTF8.self)
            facts.note(HeadFacts.Special(nameBytes), value: value, bytes: valueBytes)
            headers.add(String(decoding: nameBytes, as: UTF8.self), value)
        }
        let framing = try facts.framing(isHTTP11: isHTTP11)
        try facts.checkHost(isHTTP11: isHTTP11)
        // A plain path is its own path, as `HTTPTargetDecoder.decode` finds, here from the scan of the request line.
        let (path, query) = requestTarget.isPlainPath ? (target, []) : try HTTPTargetDecoder.decode(target)
        return HTTPRequestHead(
            method: method,
            target: target,
            path: path,
            query: query,
            version: version,
            headers: headers,
            framing: framing,
            isKeepAlive: !facts.closes && (isHTTP11 || facts.keepsAlive),
            expectsContinue: isHTTP11 && facts.continues
        )
    }

    /// Checks a trailer block (the fields after a chunked body's last chunk) as a head's fields are checked; the
    /// trailers themselves are dropped.
    static func checkTrailers(_ block: ArraySlice<UInt8>) throws(HTTPParserError) {
        try block.withUnsafeBufferPointer { (bytes) throws(HTTPParserError) in
            var lines = HeadLines(bytes)
            while let line = try lines.next() {
                do throws(HTTPParserError) {
                    _ = try Self.field(UnsafeBufferPointer(rebasing: bytes[line]), at: line.lowerBound)
                } catch {
                    throw try lines.error(after: error)
                }
            }
        }
    }

    /// The lines of a block one at a time, without their CRLF/LF, up to the terminating empty line; a bare CR inside
    /// a line is refused (RFC 9112 §2.2).
    struct HeadLines {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where the next line starts.
        private var start = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The next line's range in the block; nil at the empty line that ends the block (or its end).
        mutating func next() throws(HTTPParserError) -> Range<Int>? {
            let (lineFeed, carriageReturn) = self.lineFeed(from: self.start)
            guard lineFeed < self.bytes.count else {
                self.start = self.bytes.count
                return nil
            }
            var end = lineFeed
            if end > self.start && self.bytes[end - 1] == 0x0D { end -= 1 }
            if carriageReturn < end { throw .malformed("A header line contains a bare carriage return.") }
            let line = self.start..<end
            // The empty line ends the block: nothing after it is a line of this block.
            self.start = line.isEmpty ? self.bytes.count : lineFeed + 1
            return line.isEmpty ? nil : line
        }

        /// The first LF at or after `start` (the count when there is none) and the first CR before it (`Int.max`
        /// when there is none), read eight bytes at a time.
        private func lineFeed(from start: Int) -> (lineFeed: Int, carriageReturn: Int) {
            var carriageReturn = Int.max
            var index = start
            if let base = self.bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= self.bytes.count {
                    let word = ByteWords.word(raw, at: index)
                    let lineFeeds = ByteWords.matches(0x0A, in: word)
                    // Only the CRs before the word's first LF count.
                    let below = lineFeeds == 0 ? ~0 : (lineFeeds & (0 &- lineFeeds)) &- 1
                    let carriageReturns = ByteWords.matches(0x0D, in: word) & below
                    if carriageReturns != 0 && carriageReturn == .max {
                        carriageReturn = index + carriageReturns.trailingZeroBitCount / 8
                    }
                    if lineFeeds != 0 { return (index + lineFeeds.trailingZeroBitCount / 8, carriageReturn) }
                    index += 8
                }
            }
            while index < self.bytes.count {
                switch self.bytes[index] {
                case 0x0A: return (index, carriageReturn)
                case 0x0D: carriageReturn = min(carriageReturn, index)
                default: break
                }
                index += 1
            }
            return (index, carriageReturn)
        }

        /// What to throw when `error` broke the line just read: a bare CR in a later line of the block, which the
        /// rules find before anything else, or `error`.
        mutating func error(after error: HTTPParserError) throws(HTTPParserError) -> HTTPParserError {
            while try self.next() != nil {}
            return error
        }
    }

    /// Splits a field line `name: value` (at `offset` in its block) into the ranges of its name and its value
    /// without the whitespace around it; obsolete line folding, whitespace before the colon and control characters
    /// in the value are refused.
    private static func field(
        _ line: UnsafeBufferPointer<UInt8>, at offset: Int
    ) throws(HTTPParserError) -> (name: Range<Int>, value: Range<Int>) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw .malformed("Header lines must not start with whitespace (obsolete line folding).")
        }
        var colon = 0
        while colon < line.count && Self.isTokenByte(line[colon]) { colon += 1 }
        guard colon < line.count, line[colon] == UInt8(ascii: ":"), colon > 0 else {
            guard line[colon...].contains(UInt8(ascii: ":")) else { throw .malformed("A header line has no colon.") }
            throw .malformed("A header name is empty or contains characters that are not allowed.")
        }
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while start < end, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        var index = start
        while index < end {
            let byte = line[index]
            guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else {
                let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
                throw .malformed("The value of header \(name) contains control characters.")
            }
            index += 1
        }
        return (offset..<(offset + colon), (offset + start)..<(offset + end))
    }

    /// A request line's parts, and whether its target is a plain path (`isPlainPath`: it starts with `/` and holds
    /// no `?`, `#` or `%`), which is its own path with no query, as `HTTPTargetDecoder.decode` finds.
    struct RequestTarget {
        var method: String
        var target: String
        var version: String
        var isPlainPath: Bool
    }

    /// Splits the request line `METHOD target HTTP/1.1` and checks its parts, in one walk over its bytes.
    private static func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPParserError) -> RequestTarget {
        var spaces = 0
        var firstSpace = 0
        var lastSpace = 0
        // Between the first space and the last: bytes no target may hold, bytes past ASCII, and `? # %`.
        var isControl = false
        var isASCII = true
        var isPlain = true
        for index in line.indices {
            let byte = line[index]
            if byte == 0x20 {
                if spaces == 0 { firstSpace = index }
                lastSpace = index
                spaces += 1
            } else if spaces > 0 {
                if byte < 0x20 || byte == 0x7F { isControl = true }
                if byte >= 0x80 { isASCII = false }
                if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "%") {
                    isPlain = false
                }
            }
        }
        // Exactly two spaces: the line's three parts.
        guard spaces == 2 else {
            throw .malformed("The request line must be \"METHOD target HTTP/1.1\" separated by single spaces.")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[..<firstSpace])
        let targetBytes = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<lastSpace])
        let versionBytes = UnsafeBufferPointer(rebasing: line[(lastSpace + 1)...])
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(Self.isTokenByte) else {
            throw .malformed("The request method is not a valid token.")
        }
        // The version's bytes sat after the last space: what was seen past the first space up to it is the target's.
        guard !targetBytes.isEmpty, !isControl || !Self.holdsControl(targetBytes) else {
            throw .malformed("The request target is empty or contains control characters.")
        }
        // The two versions served are told from the bytes and spelled as literals: no string is made for them.
        let known: String? =
            Self.isVersion(versionBytes, "HTTP/1.1")
            ? "HTTP/1.1" : Self.isVersion(versionBytes, "HTTP/1.0") ? "HTTP/1.0" : nil
        if let version = known {
            // Raw bytes that are not UTF-8 are refused as their percent-encoded form is, rather than replaced by
            // U+FFFD, which would make distinct targets name one location. An ASCII target (nearly every one) is
            // UTF-8 as it is and skips the generic validation.
            let targetIsASCII = isASCII || targetBytes.allSatisfy { $0 < 0x80 }
            guard
                let target = targetIsASCII
                    ? String(decoding: targetBytes, as: UTF8.self) : String(validating: targetBytes, as: UTF8.self)
            else {
                throw .malformed("The request target is not UTF-8; percent-encode its bytes as UTF-8.")
            }
            let isPlainPath =
                targetBytes[0] == UInt8(ascii: "/")
                && (isPlain
                    || !targetBytes.contains {
                        $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%")
                    })
            return RequestTarget(
                method: String(decoding: methodBytes, as: UTF8.self), target: target, version: version,
                isPlainPath: isPlainPath)
        }
        let version = String(decoding: versionBytes, as: UTF8.self)
        let shape = Array(versionBytes)
        if shape.count == 8, shape.starts(with: Array("HTTP/".utf8)), shape[6] == UInt8(ascii: "."),
            Self.isDigit(shape[5]), Self.isDigit(shape[7])
        {
            throw HTTPParserError(.unsupportedVersion, "\(version) is not supported; use HTTP/1.1.")
        }
        throw .malformed("The request line does not end with an HTTP version such as HTTP/1.1.")
    }

    /// Whether a target holds a byte no target may hold: a control character, a space or DEL.
    private static func holdsControl(_ target: UnsafeBufferPointer<UInt8>) -> Bool {
        !target.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }

    /// Whether `bytes` are the eight bytes of `version`, compared as one word.
    private static func isVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ version: StaticString) -> Bool {
        guard bytes.count == 8, let base = bytes.baseAddress else { return false }
        return version.withUTF8Buffer { expected in
            guard expected.count == 8, let other = expected.baseAddress else { return false }
            return UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
                == UnsafeRawPointer(other).loadUnaligned(as: UInt64.self)
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `tchar` from RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
