import HearthTestKit
import Testing

@testable import HearthNet

@Suite struct HTTPRequestParserTests {
    @Test func parsesRequestLineHeadersPathAndQuery() throws {
        let input = "GET /users/a%20b/.json?orderBy=%22score%22&x=a+b&flag HTTP/1.1\r\nHost: h\r\nX-A:  1 \r\n\r\n"
        let outcomes = parseAll(input.bytes)
        let request = try #require(outcomes.first.flatMap { if case .request(let r) = $0 { r } else { nil } })
        #expect(outcomes.count == 1)
        #expect(request.method == "GET")
        #expect(request.target == "/users/a%20b/.json?orderBy=%22score%22&x=a+b&flag")
        #expect(request.path == "/users/a b/.json")
        #expect(request.query == ["orderBy=\"score\"", "x=a b", "flag="])
        #expect(request.headers == ["Host: h", "X-A: 1"])
        #expect(request.isKeepAlive)
        #expect(request.body.isEmpty)
    }

    @Test func keepAliveDefaultsFollowTheVersionAndConnectionHeader() {
        let cases: [(String, Bool)] = [
            ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n\r\n", false),
            ("GET / HTTP/1.0\r\n\r\n", false),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: upgrade, close\r\n\r\n", false),
        ]
        for (input, expected) in cases {
            guard case .request(let request) = parseAll(input.bytes).first else {
                Issue.record("no request for \(input)")
                continue
            }
            #expect(request.isKeepAlive == expected, "\(input)")
        }
    }

    @Test func readsContentLengthBodiesAndPipelinedRequestsInOrder() {
        let input =
            "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
            + "GET /b HTTP/1.1\r\nHost: h\r\n\r\nPUT /c HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi"
        let outcomes = parseAll(input.bytes)
        let paths = outcomes.compactMap { if case .request(let r) = $0 { r.path } else { nil } }
        let bodies = outcomes.compactMap {
            if case .request(let r) = $0 { String(decoding: r.body, as: UTF8.self) } else { nil }
        }
        #expect(paths == ["/a", "/b", "/c"])
        #expect(bodies == ["hello", "", "hi"])
    }

    @Test func decodesChunkedBodiesWithExtensionsAndTrailers() {
        let input =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhello\r\n6\r\n world\r\n0\r\n"
            + "X-Trailer: 1\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n"
        let outcomes = parseAll(input.bytes)
        guard case .request(let first) = outcomes.first else {
            Issue.record("expected a request, got \(outcomes)")
            return
        }
        #expect(String(decoding: first.body, as: UTF8.self) == "hello world")
        #expect(outcomes.count == 2)
    }

    @Test func ignoresEmptyLinesBeforeTheRequestLine() {
        let outcomes = parseAll("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".bytes)
        #expect(outcomes.count == 1)
        if case .failure = outcomes.first { Issue.record("leading CRLF was refused") }
    }

    @Test func flagsExpectContinue() {
        let input = "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx"
        guard case .request(let request) = parseAll(input.bytes).first else {
            Issue.record("no request")
            return
        }
        #expect(request.expectsContinue)
    }

    @Test func refusesMalformedHeadsWith400() {
        let inputs = [
            "GARBAGE\r\n\r\n",
            "GET /\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nX-A : 1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 6\r\n\r\nhello",
            "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
            "GET /a%zz HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET /a%2 HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET /?q=%G1 HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET /a%FF HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET nothing HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY",
        ]
        for input in inputs {
            #expect(
                parseAll(input.bytes) == [.failure(code: .malformedRequest, status: 400)],
                "\(input.debugDescription)"
            )
        }
    }

    /// Raw bytes that are not UTF-8 are refused like their percent-encoded form (`/a%FF`), never turned into U+FFFD
    /// (which would let distinct targets collide); raw UTF-8 is taken as it is.
    @Test func refusesRawTargetBytesThatAreNotUTF8() throws {
        let head = Array("GET /a/".utf8) + [0xFF, 0xFE] + Array(".json HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        #expect(parseAll(head) == [.failure(code: .malformedRequest, status: 400)])
        let outcomes = parseAll("GET /caf\u{E9}.json HTTP/1.1\r\nHost: h\r\n\r\n".bytes)
        let request = try #require(outcomes.first.flatMap { if case .request(let r) = $0 { r } else { nil } })
        #expect(request.path == "/caf\u{E9}.json")
    }

    /// RFC 9112 §6.1: a server must treat `Transfer-Encoding` in an HTTP/1.0 request as faulty framing.
    @Test func refusesTransferEncodingFromAnHTTP10Client() {
        let input = "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n"
        #expect(parseAll(input.bytes) == [.failure(code: .malformedRequest, status: 400)])
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request needs exactly one Host; no request may carry several.
    @Test func refusesMissingOrDuplicateHostWith400() {
        let inputs = [
            "GET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nX-A: 1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a, b\r\n\r\n",
            "GET / HTTP/1.0\r\nHost: a\r\nHOST: b\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi",
        ]
        for input in inputs {
            #expect(
                parseAll(input.bytes) == [.failure(code: .malformedRequest, status: 400)],
                "\(input.debugDescription)"
            )
        }
    }

    @Test func namesTheHostProblemInTheMessage() {
        var parser = HTTPRequestParser(maximumHeaderBytes: 1024)
        parser.append(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        guard case .failure(let missing) = parser.next() else {
            Issue.record("a request without Host was accepted")
            return
        }
        #expect(missing.message.contains("must carry a Host header"))
        var duplicate = HTTPRequestParser(maximumHeaderBytes: 1024)
        duplicate.append(Array("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8))
        guard case .failure(let several) = duplicate.next() else {
            Issue.record("a request with two Host headers was accepted")
            return
        }
        #expect(several.message.contains("2 Host headers"))
    }

    @Test func acceptsOneHostOrAnHTTP10RequestWithoutHost() {
        let inputs = [
            "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n",
            "GET / HTTP/1.1\r\nhOsT: [::1]\r\n\r\n",
            "GET / HTTP/1.1\r\nHost:\r\n\r\n",
            "GET / HTTP/1.0\r\n\r\n",
            "GET / HTTP/1.0\r\nHost: a\r\n\r\n",
        ]
        for input in inputs {
            guard case .request = parseAll(input.bytes).first else {
                Issue.record("refused \(input.debugDescription)")
                continue
            }
        }
    }

    @Test func acceptsRepeatedIdenticalContentLengths() {
        let input = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"
        guard case .request(let request) = parseAll(input.bytes).first else {
            Issue.record("identical Content-Length values were refused")
            return
        }
        #expect(request.body == "ok".bytes)
    }

    /// A `Content-Length` list's elements may carry spaces and tabs around them (trimmed over their bytes); digits
    /// broken by a space, or elements that differ, are refused.
    @Test func readsContentLengthListsWithWhitespaceAroundTheirElements() {
        let input = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2 ,\t 2\r\n\r\nok"
        guard case .request(let request) = parseAll(input.bytes).first else {
            Issue.record("a Content-Length list with whitespace was refused")
            return
        }
        #expect(request.body == "ok".bytes)
        for value in ["1 2", "2, 3", " , 2", "2,"] {
            let refused = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(value)\r\n\r\nok"
            #expect(parseAll(refused.bytes) == [.failure(code: .malformedRequest, status: 400)], "\(value)")
        }
    }

    @Test func answersOtherHTTPVersionsWith505() {
        #expect(parseAll("GET / HTTP/2.0\r\n\r\n".bytes) == [.failure(code: .unsupportedVersion, status: 505)])
    }

    @Test func refusesHeadsOverTheLimitWith431() {
        let long = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 200) + "\r\n\r\n"
        #expect(parseAll(long.bytes, maximumHeaderBytes: 100) == [.failure(code: .headTooLarge, status: 431)])
        let unterminated = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 200)
        #expect(parseAll(unterminated.bytes, maximumHeaderBytes: 100) == [.failure(code: .headTooLarge, status: 431)])
    }

    @Test func refusesBodiesOverTheLimitFromContentLengthOrChunkTotal() {
        let declared = "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n"
        #expect(parseAll(declared.bytes, bodyLimit: 10) == [.failure(code: .bodyTooLarge, status: 400)])
        let chunked =
            "PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n"
        #expect(parseAll(chunked.bytes, bodyLimit: 10) == [.failure(code: .bodyTooLarge, status: 400)])
        #expect(parseAll(chunked.bytes, bodyLimit: 11).count == 1)
    }

    /// Every input must give the same outcomes whether it arrives at once, byte by byte, or in random chunks.
    @Test func givesIdenticalResultsWhateverTheChunking() {
        let corpus = [
            "GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789GET / HTTP/1.0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n3;x=y\r\nabc\r\n0\r\nT: v\r\n\r\n",
            "\r\nGET / HTTP/1.1\nHost: bare-lf\n\n",
            "GET / HTTP/1.1\r\nHost: h\r\nX: 1\r\n folded\r\n\r\n",
            "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabcDELETE /z HTTP/1.1\r\nHost: h\r\n\r\n",
        ]
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            for input in corpus {
                let bytes = input.bytes
                let whole = parseAll(bytes)
                let byByte = parseAll(bytes, chunkSizes: Array(repeating: 1, count: bytes.count))
                let chunked = parseAll(bytes, chunkSizes: randomChunkSizes(count: bytes.count, using: &random))
                #expect(whole == byByte, "seed \(seed), byte by byte: \(input.debugDescription)")
                #expect(whole == chunked, "seed \(seed), random chunks: \(input.debugDescription)")
            }
        }
    }

    /// Random and mutated inputs never trap the parser, and chunking never changes its answer.
    @Test func survivesRandomBytes() {
        let seed: UInt64 = 0x5EED_F00D
        var random = SeededRandom(seed: seed)
        let seeds = [
            "GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbody",
        ].map(\.bytes)
        let alphabet = "GETPOST /%:\r\n0123456789abcdefHTTP/1.;chunked-Length".bytes
        for index in 0..<10_000 {
            var input: [UInt8]
            if index % 2 == 0 {
                let count = Int.random(in: 0...200, using: &random)
                input = (0..<count).map { _ in
                    Bool.random(using: &random)
                        ? UInt8.random(in: 0...255, using: &random) : alphabet.randomElement(using: &random) ?? 0
                }
            } else {
                input = seeds[index % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) where !input.isEmpty {
                    let position = Int.random(in: 0..<input.count, using: &random)
                    input[position] = alphabet.randomElement(using: &random) ?? 0
                }
            }
            let whole = parseAll(input, bodyLimit: 64, maximumHeaderBytes: 128)
            let chunked = parseAll(
                input,
                chunkSizes: randomChunkSizes(count: input.count, using: &random),
                bodyLimit: 64,
                maximumHeaderBytes: 128
            )
            if whole != chunked {
                Issue.record("seed \(seed) case \(index): chunking changed the outcome for \(input)")
                return
            }
        }
    }

    /// A token byte is exactly RFC 9110's `tchar`: a letter, a digit or one of ``!#$%&'*+-.^_`|~``, checked against
    /// that list for every byte.
    @Test func tokenBytesAreExactlyTheRFCsCharacters() {
        let punctuation = Array("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8.min...UInt8.max {
            let isAlphanumeric =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            #expect(HTTPRequestParser.isTokenByte(byte) == (isAlphanumeric || punctuation.contains(byte)), "\(byte)")
        }
    }

    /// A request line is three parts split by single spaces, found without splitting it into an array: the same
    /// method, target and version as the parts of a split, and the same refusal whenever a split does not give three.
    @Test func requestLinesSplitAsTheirSpacesSay() {
        let lines = [
            "GET /a HTTP/1.1", "PATCH /.json HTTP/1.1", "GET /a  HTTP/1.1", " GET /a HTTP/1.1", "GET /a HTTP/1.1 ",
            "GET /a", "GET", "GET /a b HTTP/1.1", "GET\t/a HTTP/1.1", "GET  HTTP/1.1", "OPTIONS * HTTP/1.0",
        ]
        for line in lines {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            let events = parseAll(Array("\(line)\r\nHost: h\r\n\r\n".utf8))
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && !$0.contains("\t") }) else {
                #expect(events == [.failure(code: .malformedRequest, status: 400)], "\(line.debugDescription)")
                continue
            }
            guard case .request(let request)? = events.first else {
                Issue.record("\(line.debugDescription) gave \(events)")
                continue
            }
            #expect(
                [request.method, request.target, request.version] == parts.map(String.init), "\(line.debugDescription)")
        }
    }

    /// A target that is a plain path (no query, fragment or escape) decodes to itself with no query, as the same
    /// target with an empty query does through the general decoder.
    @Test func plainPathsDecodeToThemselves() throws {
        for target in ["/", "/.json", "/a/b.json", "/users/ada+lovelace.json", "//a", "/é.json"] {
            let plain = try HTTPTargetDecoder.decode(target)
            let general = try HTTPTargetDecoder.decode(target + "?")
            #expect(plain.path == target && plain.query.isEmpty, "\(target)")
            #expect(plain.path == general.path && general.query.isEmpty, "\(target)")
        }
    }
}
