import HearthNet
import HearthTestKit
import Testing

/// Hands pipelined PUTs over in batches (`sharesBatches` admits PUTs), records each hand-off's paths, and answers
/// every request with its method and path.
private struct BatchingHandler: HTTPRequestHandler {
    let handOffs = Recorder<[String]>()

    func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        method == "PUT"
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        self.handOffs.append([request.path])
        return HTTPServerBatchingLoopbackTests.answer(request)
    }

    func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        self.handOffs.append(requests.map(\.path))
        return requests.map(HTTPServerBatchingLoopbackTests.answer)
    }

}

/// Pipelined requests read together go to the application in one hand-off while it lets them share a batch, and
/// their answers leave in request order; what cannot join a batch (a request that closes the connection, an error,
/// a body not yet read) waits for the batch ahead of it to be answered.
@Suite(.serialized) struct HTTPServerBatchingLoopbackTests {
    /// Every test handler's answer: the request's method and path, so the client can tell the answers apart.
    static func answer(_ request: HTTPRequest) -> HTTPReply {
        .response(HTTPResponse(status: 200, body: Array("\(request.method) \(request.path)".utf8)))
    }

    /// A pipelinable PUT of a two-byte body, closing the connection if `close`.
    static func put(_ path: String, close: Bool = false) -> String {
        "PUT \(path) HTTP/1.1\r\nHost: h\r\n\(close ? "Connection: close\r\n" : "")Content-Length: 2\r\n\r\nhi"
    }

    /// Three PUTs and a GET sent at once reach the application as one batch, the GET last, and are answered in
    /// order; a request sent after the answers goes alone.
    @Test func pipelinedPutsGoOverInOneHandOff() async throws {
        let handler = BatchingHandler()
        try await withServer(handler: handler) { _, port in
            let bodies = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(Self.put("/1") + Self.put("/2") + Self.put("/3") + "GET /4 HTTP/1.1\r\nHost: h\r\n\r\n")
                var bodies = try (0..<4).map { _ in try client.readResponse().text }
                try client.send(Self.put("/5"))
                bodies.append(try client.readResponse().text)
                return bodies
            }
            #expect(bodies == ["PUT /1", "PUT /2", "PUT /3", "GET /4", "PUT /5"])
            #expect(handler.handOffs.all == [["/1", "/2", "/3", "/4"], ["/5"]])
        }
    }

    /// A GET, which shares no batch, goes alone, and the PUTs behind it go together once it is answered.
    @Test func aRequestThatSharesNoBatchEndsOne() async throws {
        let handler = BatchingHandler()
        try await withServer(handler: handler) { _, port in
            let bodies = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\n" + Self.put("/2") + Self.put("/3"))
                return try (0..<3).map { _ in try client.readResponse().text }
            }
            #expect(bodies == ["GET /1", "PUT /2", "PUT /3"])
            #expect(handler.handOffs.all == [["/1"], ["/2", "/3"]])
        }
    }

    /// Nothing pipelined behind a request that closes the connection is handled: the batch ends with it.
    @Test func aClosingRequestEndsTheBatchAndTheConnection() async throws {
        let handler = BatchingHandler()
        try await withServer(handler: handler) { _, port in
            let (first, second, closes) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(Self.put("/1") + Self.put("/2", close: true) + Self.put("/3"))
                let first = try client.readResponse()
                let second = try client.readResponse()
                return (first.text, second, (try? client.readResponse()) == nil)
            }
            #expect(first == "PUT /1" && second.text == "PUT /2")
            #expect(second.header("Connection") == "close" && closes)
            #expect(handler.handOffs.all == [["/1", "/2"]])
        }
    }

    /// A malformed request right behind a batch is answered after the batch, and then the connection closes.
    @Test func anErrorBehindABatchIsAnsweredAfterIt() async throws {
        let handler = BatchingHandler()
        try await withServer(handler: handler) { _, port in
            let (answers, error) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(Self.put("/1") + Self.put("/2") + "NOT A REQUEST\r\n\r\n")
                let answers = try (0..<2).map { _ in try client.readResponse().text }
                return (answers, try client.readResponse())
            }
            #expect(answers == ["PUT /1", "PUT /2"])
            #expect(error.status == 400 && error.header("Connection") == "close")
            #expect(handler.handOffs.all == [["/1", "/2"]])
        }
    }

    /// A PUT whose head came behind a batch but whose body had not arrived is read, and handled, once the batch is
    /// answered; a client waiting for `100 Continue` gets it only after the batch's answers.
    @Test func aBodyStillArrivingWaitsForTheBatchAhead() async throws {
        let handler = BatchingHandler()
        try await withServer(handler: handler) { _, port in
            let (answers, interim, last) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(
                    Self.put("/1") + Self.put("/2")
                        + "PUT /3 HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
                let answers = try (0..<2).map { _ in try client.readResponse().text }
                let interim = try client.readResponse()
                try client.send("hi")
                return (answers, interim.status, try client.readResponse().text)
            }
            #expect(answers == ["PUT /1", "PUT /2"])
            #expect(interim == 100 && last == "PUT /3")
            #expect(handler.handOffs.all == [["/1", "/2"], ["/3"]])
        }
    }
}
