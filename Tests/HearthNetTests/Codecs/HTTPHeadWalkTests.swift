import HearthTestKit
import Testing

@testable import HearthNet

/// The head read in one walk (`HTTPRequestParser.makeHead`, `checkTrailers`) against the parser it replaced
/// (`ReferenceHeadParser`): for every block the same head — method, target, path, query, version, fields, framing,
/// keep-alive, `100-continue` — or the same error, code and message.
@Suite struct HTTPHeadWalkTests {
    /// What a head parse gives, comparable.
    enum Outcome: Equatable {
        case head([String])
        case failure(HTTPParserError)
    }

    static func outcome(_ parse: () throws(HTTPParserError) -> HTTPRequestHead) -> Outcome {
        do {
            let head = try parse()
            return .head(
                [
                    head.method, head.target, head.path, head.version, "\(head.framing)", "\(head.isKeepAlive)",
                    "\(head.expectsContinue)",
                ]
                    + head.query.map { "?\($0.name)=\($0.value)" } + head.headers.map { "\($0.name): \($0.value)" })
        } catch {
            return .failure(error)
        }
    }

    static func trailerOutcome(_ check: () throws(HTTPParserError) -> Void) -> HTTPParserError? {
        do {
            try check()
            return nil
        } catch {
            return error
        }
    }

    static let requestLines = [
        "PATCH /.json HTTP/1.1", "GET /a/b.json?x=1&y HTTP/1.0", "GET / HTTP/2.0", "GET / HTTP/1.1x", "BAD",
        "GET  / HTTP/1.1", "G(T / HTTP/1.1", "GET /é.json HTTP/1.1", "GET /%zz HTTP/1.1", "GET http://h/a HTTP/1.1",
        "OPTIONS * HTTP/1.1", "GET /a\r HTTP/1.1", "",
    ]
    static let names = [
        "Host", "HOST", "host", "Content-Length", "content-LENGTH", "Transfer-Encoding", "transfer-encoding",
        "Connection", "CONNECTION", "Expect", "eXpect", "X-A", "Content-Type", "Bad Name", "", "Hö", "Hos", "Hostt",
        "Content-Lengt", "Connectio",
    ]
    static let separators = [": ", ":", " : ", ":\t", ": \t ", "", "::"]
    static let values = [
        "127.0.0.1:1", "a,b", "5", "5, 5", "5,6", " 5 ,5", "", "chunked", "gzip, chunked", "CHUNKED", " chunked ,",
        "close", "Keep-Alive", "upgrade, close", "100-continue", "100-Continue, x", ",\u{301}close", "close,\u{301}",
        "5,\u{301}", "5, 6,\u{301}", "\u{600},5", "é", "\u{7F}", "a\tb", "x\ry", "18446744073709551616",
        "000000000000000005", "5,,5", "keep-alive , close", "clo se", "\u{301}close", "close\u{301}", " \u{301}",
    ]

    /// A head that breaks no rule but, maybe, in its framing fields' values: a served request line, one `Host`,
    /// then framing fields (any case, any values from the list) and others.
    static func plausibleBlock(_ random: inout SeededRandom) -> [UInt8] {
        let isHTTP11 = Bool.random(using: &random)
        var lines = [isHTTP11 ? "PATCH /.json HTTP/1.1" : "GET /a/b.json?x=1&y HTTP/1.0"]
        if isHTTP11 || Bool.random(using: &random) { lines.append("Host: 127.0.0.1:45123") }
        let framing = ["Content-Length", "content-length", "Transfer-Encoding", "Connection", "CONNECTION", "Expect"]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let name = Int.random(in: 0..<4, using: &random) == 0 ? "X-A" : framing.randomElement(using: &random) ?? ""
            let value = Self.values.randomElement(using: &random) ?? ""
            lines.insert(
                name + (Bool.random(using: &random) ? ": " : ":") + value,
                at: Int.random(in: 1...lines.count, using: &random))
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    static func block(_ random: inout SeededRandom) -> [UInt8] {
        if Bool.random(using: &random) { return Self.plausibleBlock(&random) }
        var text = ""
        if Int.random(in: 0..<10, using: &random) == 0 { text += "GET / HTTP/1.1\r\r\n" }
        text += Self.requestLines.randomElement(using: &random) ?? ""
        text += Bool.random(using: &random) ? "\r\n" : "\n"
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            var line = ""
            switch Int.random(in: 0..<20, using: &random) {
            case 0: line = " folded: 1"
            case 1: line = "no colon here"
            case 2: line = "X-Bare: a\rb"
            default:
                line =
                    (Self.names.randomElement(using: &random) ?? "")
                    + (Self.separators.randomElement(using: &random) ?? "")
                for index in 0..<Int.random(in: 1...2, using: &random) {
                    if index > 0 { line += Bool.random(using: &random) ? ", " : "," }
                    line += Self.values.randomElement(using: &random) ?? ""
                }
                if Int.random(in: 0..<8, using: &random) == 0 { line += " \t" }
            }
            text += line + (Bool.random(using: &random) ? "\r\n" : "\n")
        }
        text += Bool.random(using: &random) ? "\r\n" : "\n"
        var bytes = Array(text.utf8)
        // Now and then a byte that is not UTF-8, in the target or a value.
        if Int.random(in: 0..<12, using: &random) == 0, let space = bytes.firstIndex(of: 0x20) {
            bytes.insert(0xFF, at: space + 2)
        }
        if Int.random(in: 0..<12, using: &random) == 0, let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            bytes.insert(0xC3, at: colon + 1)
        }
        return bytes
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func headsReadInOneWalkAreTheHeadsTheFieldsWalksRead(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var heads = 0
        for _ in 0..<4_000 {
            let block = Self.block(&random)[...]
            let walked = Self.outcome { () throws(HTTPParserError) in try HTTPRequestParser.makeHead(block) }
            let reference = Self.outcome { () throws(HTTPParserError) in try ReferenceHeadParser.makeHead(block) }
            #expect(walked == reference, "\(String(decoding: block, as: UTF8.self).debugDescription)")
            if case .head = walked { heads += 1 }
            let trailers = block.drop { $0 != 0x0A }.dropFirst()
            #expect(
                Self.trailerOutcome { () throws(HTTPParserError) in try HTTPRequestParser.checkTrailers(trailers) }
                    == Self.trailerOutcome { () throws(HTTPParserError) in
                        try ReferenceHeadParser.checkTrailers(trailers)
                    },
                "\(String(decoding: trailers, as: UTF8.self).debugDescription)")
        }
        // The blocks reach heads, not only refusals.
        #expect(heads > 800)
    }

    /// wrk's PATCH head, and the same with its fields in other cases and orders: one head, as before.
    @Test func theBenchmarksHeadReadsAsBefore() {
        let blocks = [
            "PATCH /.json HTTP/1.1\r\nContent-Type: application/json\r\nHost: 127.0.0.1:45123\r\nContent-Length: 212\r\n\r\n",
            "PATCH /.json HTTP/1.1\r\ncontent-length: 212\r\nHOST: 127.0.0.1:45123\r\nconnection: Close\r\n\r\n",
            "POST /a.json HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n",
            "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        ]
        for text in blocks {
            let block = Array(text.utf8)[...]
            let walked = Self.outcome { () throws(HTTPParserError) in try HTTPRequestParser.makeHead(block) }
            #expect(walked == Self.outcome { () throws(HTTPParserError) in try ReferenceHeadParser.makeHead(block) })
            guard case .head = walked else {
                Issue.record("\(text.debugDescription) refused: \(walked)")
                continue
            }
        }
    }
}
