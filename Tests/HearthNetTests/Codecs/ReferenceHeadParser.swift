@testable import HearthNet

/// The head parser as it was before heads were read in one walk (session 37): an array of lines, then the fields,
/// then a walk over the fields for each rule (framing, `Host`, `Connection`, `Expect`). The model the one-walk parser
/// (`HTTPRequestParser.makeHead`) is checked against: the same head, or the same error, for every block.
enum ReferenceHeadParser {
    /// The trailers' check as it was: the block's lines, then their fields.
    static func checkTrailers(_ block: ArraySlice<UInt8>) throws(HTTPParserError) {
        _ = try Self.parseFields(Self.lines(block)[...])
    }

    /// Builds the head from its block of lines (request line, fields, terminating empty line).
    ///
    /// Complexity: O(n) in the block size.
    static func makeHead(_ block: ArraySlice<UInt8>) throws(HTTPParserError) -> HTTPRequestHead {
        let lines = try Self.lines(block)
        guard let requestLine = lines.first else { throw .malformed("The request line is missing.") }
        let (method, target, version) = try Self.parseRequestLine(requestLine)
        let headers = try Self.parseFields(lines.dropFirst())
        let isHTTP11 = version == "HTTP/1.1"
        let framing = try Self.framing(headers, isHTTP11: isHTTP11)
        try Self.checkHost(headers, isHTTP11: isHTTP11)
        let (path, query) = try HTTPTargetDecoder.decode(target)
        let isKeepAlive: Bool
        if Self.containsToken("close", in: "Connection", headers) {
            isKeepAlive = false
        } else {
            isKeepAlive = isHTTP11 || Self.containsToken("keep-alive", in: "Connection", headers)
        }
        return HTTPRequestHead(
            method: method,
            target: target,
            path: path,
            query: query,
            version: version,
            headers: headers,
            framing: framing,
            isKeepAlive: isKeepAlive,
            expectsContinue: isHTTP11 && Self.containsToken("100-continue", in: "Expect", headers)
        )
    }

    /// Splits a block into lines without their CRLF/LF, dropping the terminating empty line; a bare CR inside a
    /// line is refused (RFC 9112 §2.2).
    static func lines(_ block: ArraySlice<UInt8>) throws(HTTPParserError) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        // One line per LF at most: room for them all at once, not an array grown (and copied) line by line.
        lines.reserveCapacity(block.count(where: { $0 == 0x0A }))
        var start = block.startIndex
        var index = block.startIndex
        while index < block.endIndex {
            if block[index] == 0x0A {
                var line = block[start..<index]
                if line.last == 0x0D { line = line.dropLast() }
                if line.contains(0x0D) { throw .malformed("A header line contains a bare carriage return.") }
                if line.isEmpty { break }
                lines.append(line)
                start = index + 1
            }
            index += 1
        }
        return lines
    }

    private static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) throws(HTTPParserError) -> (method: String, target: String, version: String) {
        // Exactly two spaces: the line's three parts, found without building an array of them.
        guard let firstSpace = line.firstIndex(of: 0x20), let lastSpace = line.lastIndex(of: 0x20),
            firstSpace != lastSpace, !line[(firstSpace + 1)..<lastSpace].contains(0x20)
        else {
            throw .malformed("The request line must be \"METHOD target HTTP/1.1\" separated by single spaces.")
        }
        let methodBytes = line[..<firstSpace]
        let targetBytes = line[(firstSpace + 1)..<lastSpace]
        let versionBytes = line[(lastSpace + 1)...]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(HTTPRequestParser.isTokenByte) else {
            throw .malformed("The request method is not a valid token.")
        }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .malformed("The request target is empty or contains control characters.")
        }
        // The two versions served are told from the bytes and spelled as literals: no string is made for them.
        let known: String? =
            versionBytes.elementsEqual("HTTP/1.1".utf8)
            ? "HTTP/1.1" : versionBytes.elementsEqual("HTTP/1.0".utf8) ? "HTTP/1.0" : nil
        if let version = known {
            // Raw bytes that are not UTF-8 are refused as their percent-encoded form is, rather than replaced by
            // U+FFFD, which would make distinct targets name one location. An ASCII target (nearly every one) is
            // UTF-8 as it is and skips the generic validation.
            let isASCII = targetBytes.allSatisfy { $0 < 0x80 }
            guard
                let target = isASCII
                    ? String(decoding: targetBytes, as: UTF8.self) : String(validating: targetBytes, as: UTF8.self)
            else {
                throw .malformed("The request target is not UTF-8; percent-encode its bytes as UTF-8.")
            }
            return (String(decoding: methodBytes, as: UTF8.self), target, version)
        }
        let version = String(decoding: versionBytes, as: UTF8.self)
        let shape = Array(versionBytes)
        if shape.count == 8, shape.starts(with: Array("HTTP/".utf8)), shape[6] == UInt8(ascii: "."),
            HTTPRequestParser.isDigit(shape[5]), HTTPRequestParser.isDigit(shape[7])
        {
            throw HTTPParserError(.unsupportedVersion, "\(version) is not supported; use HTTP/1.1.")
        }
        throw .malformed("The request line does not end with an HTTP version such as HTTP/1.1.")
    }

    /// Parses `name: value` lines; obsolete line folding and whitespace before the colon are refused.
    static func parseFields(_ lines: ArraySlice<ArraySlice<UInt8>>) throws(HTTPParserError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(lines.count)
        for line in lines {
            guard let first = line.first, first != 0x20, first != 0x09 else {
                throw .malformed("Header lines must not start with whitespace (obsolete line folding).")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw .malformed("A header line has no colon.")
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(HTTPRequestParser.isTokenByte) else {
                throw .malformed("A header name is empty or contains characters that are not allowed.")
            }
            var value = line[(colon + 1)...]
            while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
            while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw .malformed(
                    "The value of header \(String(decoding: name, as: UTF8.self)) contains control characters."
                )
            }
            headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        return headers
    }

    /// Decides how the body is delimited (RFC 9112 §6.3), refusing the ambiguous cases request smuggling relies on,
    /// and `Transfer-Encoding` from an HTTP/1.0 client, which cannot have meant it (RFC 9112 §6.1).
    private static func framing(
        _ headers: HTTPHeaders, isHTTP11: Bool
    ) throws(HTTPParserError) -> HTTPRequestHead.Framing {
        // One walk over the fields where they lie; only a `Transfer-Encoding` (rare) is gathered into an array.
        var encodings: [String] = []
        var hasLength = false
        headers.withFields { fields in
            for index in fields.indices {
                if HTTPHeaders.namesEqual(fields[index].name, "Content-Length") {
                    hasLength = true
                } else if HTTPHeaders.namesEqual(fields[index].name, "Transfer-Encoding") {
                    encodings.append(fields[index].value)
                }
            }
        }
        if !encodings.isEmpty {
            guard isHTTP11 else {
                throw .malformed("Transfer-Encoding needs HTTP/1.1; an HTTP/1.0 request gives its Content-Length.")
            }
            guard !hasLength else {
                throw .malformed("A request must not have both Content-Length and Transfer-Encoding.")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingASCIIWhitespace().lowercased()
            }
            guard codings == ["chunked"] else {
                throw .malformed(
                    "Transfer-Encoding \"\(encodings.joined(separator: ", "))\" is not supported; use chunked."
                )
            }
            return .chunked
        }
        var length: Int?
        try headers.withFields { (fields) throws(HTTPParserError) in
            for index in fields.indices where HTTPHeaders.namesEqual(fields[index].name, "Content-Length") {
                let value = fields[index].value
                // A single number (nearly every value) is read as it is; only a list is split into its elements.
                guard value.utf8.contains(UInt8(ascii: ",")) else {
                    length = try Self.sameLength(Substring(value), as: length)
                    continue
                }
                for element in value.split(separator: ",", omittingEmptySubsequences: false) {
                    length = try Self.sameLength(element, as: length)
                }
            }
        }
        return length.map { .length($0) } ?? .none
    }

    /// One element of a `Content-Length` value, which must be a decimal number equal to `earlier` (the elements
    /// before it), if any.
    private static func sameLength(_ element: Substring, as earlier: Int?) throws(HTTPParserError) -> Int {
        let digits = element.trimmingASCIIWhitespace().utf8
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(HTTPRequestParser.isDigit) else {
            throw .malformed("Content-Length must be a decimal number of bytes.")
        }
        // At most 18 digits: the value fits an Int, so it is summed from the bytes as they are.
        let parsed = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        if let earlier, earlier != parsed {
            throw .malformed("The request has several different Content-Length values.")
        }
        return parsed
    }

    /// Requires exactly one `Host` field on HTTP/1.1 and at most one on HTTP/1.0 (RFC 9112 §3.2); a value that is
    /// a comma-separated list names several hosts and is refused too.
    ///
    /// Complexity: O(n) in the number of fields.
    private static func checkHost(_ headers: HTTPHeaders, isHTTP11: Bool) throws(HTTPParserError) {
        var count = 0
        var first: String?
        headers.withFields { fields in
            for index in fields.indices where HTTPHeaders.namesEqual(fields[index].name, "Host") {
                count += 1
                if first == nil { first = fields[index].value }
            }
        }
        if count == 0, isHTTP11 {
            throw .malformed("An HTTP/1.1 request must carry a Host header; add one, e.g. \"Host: example.com\".")
        }
        guard count <= 1 else {
            throw .malformed("The request has \(count) Host headers; send exactly one.")
        }
        if let host = first, host.utf8.contains(UInt8(ascii: ",")) {
            throw .malformed("The Host header \"\(host)\" lists several hosts; send exactly one.")
        }
    }

    /// `HTTPHeaders.containsToken` as it was: each field of that name split on its `Character`s.
    private static func containsToken(_ token: String, in name: String, _ headers: HTTPHeaders) -> Bool {
        for (fieldName, value) in headers where HTTPHeaders.namesEqual(fieldName, name) {
            for element in value.split(separator: ",") {
                var trimmed = element
                while let first = trimmed.first, first == " " || first == "\t" { trimmed = trimmed.dropFirst() }
                while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
                if HTTPHeaders.namesEqual(trimmed, token) { return true }
            }
        }
        return false
    }
}
