import HearthCore

/// What the fields that frame a request say, noted field by field as a head is read (`makeHead`), so the rules of
/// RFC 9112 §6.3 and §3.2 are applied without walking the fields again: how the body is delimited, the `Host` rule,
/// keep-alive and `100-continue`.
extension HTTPRequestParser {
    struct HeadFacts {
        /// The fields the head's rules read, told from their names (compared case-insensitively).
        enum Special {
            case host, contentLength, transferEncoding, connection, expect

            /// The field `name` names, if it is one of them.
            init?(_ name: UnsafeBufferPointer<UInt8>) {
                switch name.count {
                case 4 where Self.matches(name, "host"): self = .host
                case 6 where Self.matches(name, "expect"): self = .expect
                case 10 where Self.matches(name, "connection"): self = .connection
                case 14 where Self.matches(name, "content-length"): self = .contentLength
                case 17 where Self.matches(name, "transfer-encoding"): self = .transferEncoding
                default: return nil
                }
            }

            private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ lowercased: StaticString) -> Bool {
                lowercased.withUTF8Buffer { HeadFacts.equalFolded(name, $0) }
            }
        }

        /// Whether a `Content-Length` field came.
        var hasLength = false
        /// The length every `Content-Length` element so far names.
        var length: Int?
        /// The first `Content-Length` element that broke the rules: the request is refused with it unless a
        /// `Transfer-Encoding` decides the framing first.
        var lengthError: HTTPParserError?
        /// Every `Transfer-Encoding` value, in order (a rare field).
        var encodings: [String] = []
        var hostCount = 0
        var firstHost: String?
        /// The first `Host` value holds a comma.
        var hostListsSeveral = false
        /// `Connection` lists `close`, `keep-alive`; `Expect` lists `100-continue`.
        var closes = false
        var keepsAlive = false
        var continues = false

        /// Notes a field of the kind `special` (nothing for another field) with its `value`, whose UTF-8 `bytes`
        /// (as received) it was made from.
        mutating func note(_ special: Special?, value: String, bytes: UnsafeBufferPointer<UInt8>) {
            guard let special else { return }
            switch special {
            case .host:
                self.hostCount += 1
                if self.firstHost == nil {
                    self.firstHost = value
                    // Read from the bytes, where the `String`'s view would be walked through its indices: a comma is
                    // a comma in both (making the `String` replaces only bytes that are not UTF-8).
                    self.hostListsSeveral = bytes.contains(UInt8(ascii: ","))
                }
            case .contentLength:
                self.hasLength = true
                guard self.lengthError == nil else { return }
                do {
                    try self.noteLength(value, bytes: bytes)
                } catch {
                    self.lengthError = error
                }
            case .transferEncoding:
                self.encodings.append(value)
            case .connection:
                if Self.list(value, bytes, contains: "close") { self.closes = true }
                if Self.list(value, bytes, contains: "keep-alive") { self.keepsAlive = true }
            case .expect:
                if Self.list(value, bytes, contains: "100-continue") { self.continues = true }
            }
        }

        /// How the body is delimited (RFC 9112 §6.3), refusing the ambiguous cases request smuggling relies on,
        /// and `Transfer-Encoding` from an HTTP/1.0 client, which cannot have meant it (RFC 9112 §6.1).
        func framing(isHTTP11: Bool) throws(HTTPParserError) -> HTTPRequestHead.Framing {
            if !self.encodings.isEmpty {
                guard isHTTP11 else {
                    throw .malformed("Transfer-Encoding needs HTTP/1.1; an HTTP/1.0 request gives its Content-Length.")
                }
                guard !self.hasLength else {
                    throw .malformed("A request must not have both Content-Length and Transfer-Encoding.")
                }
                let codings = self.encodings.flatMap { $0.split(separator: ",") }.map {
                    $0.trimmingASCIIWhitespace().lowercased()
                }
                guard codings == ["chunked"] else {
                    throw .malformed(
                        "Transfer-Encoding \"\(self.encodings.joined(separator: ", "))\" is not supported; use chunked."
                    )
                }
                return .chunked
            }
            if let lengthError = self.lengthError { throw lengthError }
            return self.length.map { .length($0) } ?? .none
        }

        /// Requires exactly one `Host` field on HTTP/1.1 and at most one on HTTP/1.0 (RFC 9112 §3.2); a value that
        /// is a comma-separated list names several hosts and is refused too.
        func checkHost(isHTTP11: Bool) throws(HTTPParserError) {
            if self.hostCount == 0, isHTTP11 {
                throw .malformed("An HTTP/1.1 request must carry a Host header; add one, e.g. \"Host: example.com\".")
            }
            guard self.hostCount <= 1 else {
                throw .malformed("The request has \(self.hostCount) Host headers; send exactly one.")
            }
            if let host = self.firstHost, self.hostListsSeveral {
                throw .malformed("The Host header \"\(host)\" lists several hosts; send exactly one.")
            }
        }

        /// Each element of a `Content-Length` value must be a decimal number equal to every one before it. An
        /// ASCII value (nearly every one) is split on its comma bytes; any other is split on its `Character`s, as
        /// the value's `String` splits (a comma joined to a combining mark is no separator there).
        private mutating func noteLength(_ value: String, bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParserError) {
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                for element in value.split(separator: ",", omittingEmptySubsequences: false) {
                    var text = String(element.trimmingASCIIWhitespace())
                    let earlier = self.length
                    self.length = try text.withUTF8 { digits in
                        Result { () throws(HTTPParserError) in try Self.sameLength(digits, as: earlier) }
                    }.get()
                }
                return
            }
            var length = self.length
            _ = try Self.firstElement(of: bytes) { (digits) throws(HTTPParserError) in
                length = try Self.sameLength(digits, as: length)
                return false
            }
            self.length = length
        }

        /// One trimmed element of a `Content-Length` value, which must be a decimal number equal to `earlier` (the
        /// elements before it), if any.
        private static func sameLength(
            _ digits: UnsafeBufferPointer<UInt8>, as earlier: Int?
        ) throws(HTTPParserError) -> Int {
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

        /// Whether the comma-separated list `value` holds `token` (`HTTPHeaders.list(_:contains:)`); an ASCII value
        /// is read from its `bytes`, where its characters are its bytes.
        private static func list(_ value: String, _ bytes: UnsafeBufferPointer<UInt8>, contains token: StaticString)
            -> Bool
        {
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return HTTPHeaders.list(value, contains: "\(token)") }
            return token.withUTF8Buffer { token in Self.firstElement(of: bytes) { Self.equalFolded($0, token) } }
        }

        /// Whether `test` holds for an element of the comma-separated list `bytes` (ASCII), each element with the
        /// spaces and tabs at its ends trimmed, every one handed over in order, empty ones too, until one passes.
        private static func firstElement<Failure: Error>(
            of bytes: UnsafeBufferPointer<UInt8>, where test: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Bool
        ) throws(Failure) -> Bool {
            var start = 0
            while start <= bytes.count {
                let end = ByteWords.firstIndex(of: UInt8(ascii: ","), in: bytes, from: start)
                var (first, last) = (start, end)
                while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                while first < last, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
                if try test(UnsafeBufferPointer(rebasing: bytes[first..<last])) { return true }
                start = end + 1
            }
            return false
        }

        /// Whether `bytes` are `lowercased` (no capital letters in it) but for the case of their ASCII letters, as
        /// `HTTPHeaders.namesEqual` compares names and list elements.
        static func equalFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercased: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == lowercased.count else { return false }
            for index in bytes.indices {
                let byte = bytes[index]
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != lowercased[index] { return false }
            }
            return true
        }
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs, trimmed over its bytes rather than its
    /// characters. A space followed by a combining mark is one character, so an end may fall inside it; every
    /// caller compares what is left with ASCII digits or tokens, so such a value is refused either way.
    func trimmingASCIIWhitespace() -> Substring {
        let bytes = self.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { bytes.formIndex(after: &start) }
        while start < end {
            let last = bytes.index(before: end)
            guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
            end = last
        }
        return self[start..<end]
    }
}
