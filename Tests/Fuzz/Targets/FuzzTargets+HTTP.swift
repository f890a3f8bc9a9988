import HearthCore
import HearthFrontEnds
import HearthNet
import HearthRules
import HearthServer
import HearthTestKit
import HearthWire

/// HTTP requests as a socket delivers them, and the REST API's query parameters.
extension FuzzTargets {
    /// The request parser over whole connections: heads, length and chunked bodies, trailers, pipelining.
    static let http = FuzzTarget(
        name: "http", summary: "HTTP/1.1 request parser: heads, Content-Length and chunked bodies, pipelining",
        texts: [
            "GET /a/b.json?print=pretty HTTP/1.1\r\nHost: x.firebaseio.com\r\n\r\n",
            "PUT /a.json HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Type: application/json\r\n\r\n12345",
            "POST /p.json HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
                + "4\r\n{\"a\"\r\n3;ext=1\r\n:1}\r\n0\r\nTrailer: x\r\n\r\n",
            "GET /.ws?v=5&ns=x HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            "GET http://h:9000/a%20b.json?x=%41&y=+z HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
                + "DELETE /x.json HTTP/1.1\r\nContent-Length: 0\r\n\r\nGET * HTTP/1.1\r\n\r\n",
            "\r\nPATCH /m.json HTTP/1.1\nHost: h\nContent-Length: 2\n\n{}",
        ],
        tokens: [
            "\r\n", "\r\n\r\n", "\n", "Content-Length: ", "Content-Length: 18446744073709551616\r\n",
            "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n",
            "ffffffffffffffff\r\n",
            "%", "%zz", "%C3%A9", "%00", "?", "&", "=", "#", " HTTP/1.1", " HTTP/1.0", "HTTP/2.0", ": ", ":", " ", "\t",
            "Connection: close\r\n", "Expect: 100-continue\r\n", "Host: ", ";", "\"", "\u{7F}", "é",
        ]
    ) { input throws(FuzzViolation) in
        let whole = Self.httpEvents([input[...]])
        let split = Self.httpEvents(Self.pieces(input))
        try FuzzViolation.check(whole == split, "fed whole: \(whole), fed in pieces: \(split)")
        return whole.contains { $0.hasPrefix("body") }
    }

    /// What the parser reports for `pieces` fed one at a time: heads, body sizes and the failure's code.
    private static func httpEvents(_ pieces: [ArraySlice<UInt8>]) -> [String] {
        var parser = HTTPRequestParser(maximumHeaderBytes: 4096)
        var events: [String] = []
        for piece in pieces {
            parser.append(Array(piece))
            while true {
                switch parser.next() {
                case .needMoreData:
                    break
                case .head(let head):
                    events.append("head \(head.method) \(head.path) \(head.query.count) \(head.framing)")
                    if let error = parser.acceptBody(limit: 64 * 1024) { return events + ["refused \(error.code)"] }
                    continue
                case .body(let body):
                    events.append("body \(body.count)")
                    continue
                case .failure(let error):
                    return events + ["failure \(error.code)"]
                }
                break
            }
        }
        return events
    }

    /// A REST request's target: path, namespace and every parameter Firebase documents, then the query they
    /// make, run over children of every type (so limits, offsets and bounds meet real data).
    static let query = FuzzTarget(
        name: "query", summary: "REST request targets: path, ns, print, format, shallow, timeout, auth, query params",
        texts: [
            "/users/ada.json?orderBy=%22$key%22&limitToFirst=5&startAt=%22a%22",
            "/scores.json?orderBy=%22score%22&startAt=3&endAt=9.5&limitToLast=2&print=pretty",
            "/a.json?orderBy=%22$value%22&equalTo=true&format=export&shallow=false",
            "/a.json?shallow=true&limitToFirst=100&startAfter=abc&timeout=3s&writeSizeLimit=tiny",
            "/a/.priority.json?orderBy=%22$priority%22&startAt=1,%22k%22&ns=other&auth=owner",
            "/a.json?timeout=15min&writeSizeLimit=unlimited&print=silent&access_token=t&x-http-method-override=PUT",
            "/a.json?orderBy=%22a/b%22&endBefore=null&startAfter=%22x%22,%22k%22&callback=cb&download=f",
            "/a.json?shallow=values&orderBy=%22$key%22&limitToFirst=51&startAfter=%22k%22",
        ],
        tokens: [
            "orderBy=", "%22$key%22", "%22$value%22", "%22$priority%22", "limitToFirst=", "limitToLast=", "startAt=",
            "startAfter=", "endAt=", "endBefore=", "equalTo=", "print=", "format=export", "shallow=true",
            "shallow=values", "timeout=",
            "ms", "s", "min", "writeSizeLimit=", "unlimited", "large", "ns=", "auth=", "&", "=", "%", "%2F", "%22", ",",
            "[", "{", "null", "true", "/.priority", ".json", "..", "//", "$", "#", "[]", ".",
        ]
    ) { input throws(FuzzViolation) in
        let target = Self.text(input)
        guard let (path, query) = try? HTTPTargetDecoder.decode(target) else { return false }
        let request = HTTPRequest(
            method: "GET", target: target, path: path, query: query,
            headers: HTTPHeaders([("Host", "fuzz.firebaseio.com")]))
        guard let rest = try? RESTRequest(request, defaultNamespace: "fuzz") else { return false }
        if let name = rest.parameters["writeSizeLimit"] { _ = try? WriteSizeLimit(name: name) }
        let spec: QuerySpec?
        do {
            spec = try QuerySpec.rest(parameters: rest.parameters) { text in try JSONReader.parseValue(text) }
        } catch {
            return false
        }
        let result = spec?.evaluate(Self.queriedData) ?? Self.queriedData
        if rest.oneLevel {
            try FuzzViolation.check(
                (try? JSONReader.parseValue(result.oneLevelJSONBytes())) != nil,
                "shallow=values wrote JSON that does not parse")
        }
        return true
    }

    /// Children of every kind a query orders: numbers, strings, booleans, objects, priorities, absent children.
    private static let queriedData =
        (try? WriteValue.parseWrite(
            Array(
                #"{"a":{"score":3,".priority":1},"b":{"score":"x"},"c":true,"d":-1e308,"e":{"score":9007199254740993},"#
                    .utf8)
                + Array(#""f":{"a":{"b":1}},"g":"str","-1":0,"10":{".value":5,".priority":"p"}}"#.utf8),
            depth: 1))?.node ?? .empty

    /// The rules playground's question (`POST /.rules/simulate`): operation, path, auth, data and a draft rules
    /// file, read into a value or refused with a 400, then the draft (or fixed rules) checked at the path.
    static let simulate = FuzzTarget(
        name: "simulate", summary: "rules playground questions: operation, path, auth, data, draft rules",
        texts: [
            #"{"operation":"read","path":"/users/ada","auth":{"uid":"ada","token":{"admin":true}}}"#,
            #"{"operation":"set","path":"/a/b","auth":null,"data":{"x":1,".priority":2,"t":{".sv":"timestamp"}}}"#,
            #"{"operation":"update","path":"/","data":{"a/b":1,"c":null},"admin":false,"rules":"{\"rules\":{}}"}"#,
            #"{"operation":"read","path":"/x/y","rules":"{\"rules\":{\".read\":\"auth.uid === 'a'\"}}"}"#,
        ],
        tokens: [
            "{", "}", "[", "]", "\"", ":", ",", "operation", "read", "set", "update", "path", "auth", "admin", "data",
            "rules", "null", "true", "/", "//", ".", "$", "#", ".sv", "\\", "\\\"", "1e999", "é",
        ]
    ) { input throws(FuzzViolation) in
        guard let question = try? RuleSimulationRequest(input) else { return false }
        guard let draft = question.draft else { return true }
        guard let document = try? RulesDocument.parse(draft) else { return false }
        let verdict = document.checkRead(at: question.path, auth: question.identity.auth, data: .empty, now: 0)
        if let decider = verdict.decider {
            let lines = draft.utf8.filter { $0 == 10 }.count + 1
            let position = RulesDocument.position(of: document.ruleKeys(of: decider), in: draft)
            try FuzzViolation.check((1...lines).contains(position.line), "the deciding rule is outside the draft")
        }
        return true
    }
}
