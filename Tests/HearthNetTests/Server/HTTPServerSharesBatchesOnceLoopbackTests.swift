import HearthNet
import HearthTestKit
import Testing

/// Lets PUTs share batches, counts how often it is asked, and records, for each request handed over, its path and
/// the server's note of its answer (`HTTPRequest.sharesBatches`).
private struct CountingHandler: HTTPRequestHandler {
    let asked = Recorder<String>()
    let handedOver = Recorder<String>()

    func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        self.asked.append(path)
        return method == "PUT"
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        self.note(request)
        return Pipelined.answer(request)
    }

    func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        requests.forEach(self.note)
        return requests.map(Pipelined.answer)
    }

    private func note(_ request: HTTPRequest) {
        self.handedOver.append("\(request.path) \(request.sharesBatches.map(String.init) ?? "nil")")
    }

}

/// The server asks the application once per request whether it shares batches, and every later step (the batch,
/// the read-ahead behind it, the application's own handling) goes by that one answer, which the request carries.
/// The batching tests' requests, pipelined the same way here.
private typealias Pipelined = HTTPServerBatchingLoopbackTests

@Suite(.serialized) struct HTTPServerSharesBatchesOnceLoopbackTests {
    /// Pipelined PUTs, a GET between them and a PUT after the answers: each request is asked about once, each
    /// handed over with the answer it got, and all are answered in order as before.
    @Test func eachRequestIsAskedOnceAndCarriesTheAnswer() async throws {
        let handler = CountingHandler()
        try await withServer(handler: handler) { _, port in
            let bodies = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(
                    Pipelined.put("/1") + Pipelined.put("/2") + "GET /3 HTTP/1.1\r\nHost: h\r\n\r\n"
                        + Pipelined.put("/4"))
                var bodies = try (0..<4).map { _ in try client.readResponse().text }
                try client.send(Pipelined.put("/5", close: true))
                bodies.append(try client.readResponse().text)
                return bodies
            }
            #expect(bodies == ["PUT /1", "PUT /2", "GET /3", "PUT /4", "PUT /5"])
            #expect(handler.asked.all == ["/1", "/2", "/3", "/4", "/5"])
            #expect(handler.handedOver.all == ["/1 true", "/2 true", "/3 false", "/4 true", "/5 true"])
        }
    }

    /// A request built outside a server carries no answer, so an application asks about it itself.
    @Test func aRequestBuiltElsewhereCarriesNone() {
        #expect(HTTPRequest(method: "PUT", target: "/a", path: "/a").sharesBatches == nil)
    }
}
