import Glibc
import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Echoes method, path, query and body so tests can see what the server parsed.
private let echo = TestHandler { request in
    let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    let text = "\(request.method) \(request.path) \(query) \(String(decoding: request.body, as: UTF8.self))"
    return .response(HTTPResponse(status: 200, body: Array(text.utf8)))
}

@Suite(.serialized) struct HTTPServerLoopbackTests {
    @Test func answersARequestWithContentLength() async throws {
        try await withServer(handler: echo) { _, port in
            let response = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET /a%20b/.json?x=1&y=hello+world HTTP/1.1\r\nHost: t\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.text == "GET /a b/.json x=1&y=hello world ")
            #expect(response.header("Content-Length") == "\(response.body.count)")
        }
    }

    /// Every request names its connection, and the handler hears that id once the connection closes, so per-
    /// connection state can be forgotten.
    @Test func requestsNameTheirConnectionAndTheHandlerHearsItClose() async throws {
        let closed = Recorder<UInt64>()
        let handler = TestHandler(
            respond: { request in .response(HTTPResponse(status: 200, body: Array("\(request.connectionID)".utf8))) },
            closed: { closed.append($0) })
        try await withServer(handler: handler) { _, port in
            let (first, again, other) = try await onDedicatedThread {
                let other = try HTTPTestClient(port: port)
                try other.send("GET /b HTTP/1.1\r\nHost: h\r\n\r\n")
                let client = try HTTPTestClient(port: port)
                try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\n")
                return (try client.readResponse().text, try client.readResponse().text, try other.readResponse().text)
            }
            #expect(first == again)
            #expect(first != other)
            let heard = await closed.wait { Set($0.map(String.init)) == [first, other] }
            #expect(heard, "closed: \(closed.all)")
        }
    }

    @Test func reusesAKeepAliveConnection() async throws {
        try await withServer(handler: echo) { server, port in
            let texts = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                var texts: [String] = []
                for index in 0..<3 {
                    try client.send("POST /\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi")
                    texts.append(try client.readResponse().text)
                }
                return texts
            }
            #expect(texts == ["POST /0  hi", "POST /1  hi", "POST /2  hi"])
            #expect(server.statistics.acceptedConnections == 1)
        }
    }

    @Test func answersPipelinedRequestsInOrder() async throws {
        let slowFirst = TestHandler { request in
            if request.path == "/1" { try? await Task.sleep(for: .milliseconds(150)) }
            return .response(HTTPResponse(status: 200, body: Array(request.path.utf8)))
        }
        try await withServer(handler: slowFirst) { _, port in
            let bodies = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(
                    "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\nGET /3 HTTP/1.1\r\nHost: h\r\n\r\n"
                )
                return try (0..<3).map { _ in try client.readResponse().text }
            }
            #expect(bodies == ["/1", "/2", "/3"])
        }
    }

    /// A client that pipelines requests without reading the answers gets no more of them answered once a
    /// megabyte waits for it (beyond what the kernel's socket buffers hold); when it reads, the rest follow, in
    /// order.
    @Test func answersPipelinedRequestsOnlyAsFastAsTheClientReads() async throws {
        let handled = Atomic<Int>(0)
        let large = TestHandler { request in
            handled.add(1, ordering: .relaxed)
            return .response(HTTPResponse(status: 200, body: Array(repeating: 0x61, count: 64 * 1024)))
        }
        try await withServer(handler: large) { _, port in
            let (whileUnread, answered) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(String(repeating: "GET /big HTTP/1.1\r\nHost: h\r\n\r\n", count: 1_000))
                usleep(500_000)
                let whileUnread = handled.load(ordering: .relaxed)
                var answered = 0
                for _ in 0..<1_000 where try client.readResponse().body.count == 64 * 1024 { answered += 1 }
                return (whileUnread, answered)
            }
            #expect(whileUnread < 400, "\(whileUnread) of 1,000 answered while the client read nothing")
            #expect(answered == 1_000)
        }
    }

    @Test func sendsContinueBeforeReadingTheBody() async throws {
        try await withServer(handler: echo) { _, port in
            let (interim, final) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
                let interim = try client.readResponse()
                try client.send("hello")
                return (interim, try client.readResponse())
            }
            #expect(interim.status == 100)
            #expect(final.status == 200)
            #expect(final.text == "PUT /x  hello")
        }
    }

    @Test func omitsTheBodyForHead() async throws {
        try await withServer(handler: echo) { _, port in
            let (head, next) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("HEAD /h HTTP/1.1\r\nHost: h\r\n\r\nGET /g HTTP/1.1\r\nHost: h\r\n\r\n")
                return (try client.readResponse(method: "HEAD"), try client.readResponse())
            }
            #expect(head.header("Content-Length") == "9")
            #expect(next.text == "GET /g  ")
        }
    }

    @Test func closesAfterAnHTTP10Request() async throws {
        try await withServer(handler: echo) { _, port in
            let (response, closed) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.0\r\n\r\n")
                return (try client.readResponse(), client.isClosedByServer())
            }
            #expect(response.header("Connection") == "close")
            #expect(closed)
        }
    }

    /// Each protocol error case: the bytes sent, the status expected and a fragment of the message.
    private static let errorCases: [String: (input: String, status: Int, message: String)] = [
        "malformed": ("GARBAGE\r\n\r\n", 400, "request line"),
        "headTooLarge": (
            "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 40_000) + "\r\n\r\n", 431, "too large"
        ),
        "declaredBodyTooLarge": (
            "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 2000\r\n\r\n", 400, "Data to write exceeds"
        ),
        "chunkedBodyTooLarge": (
            "PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n"
                + String(repeating: "a", count: 1024)
                + "\r\n",
            400, "Data to write exceeds"
        ),
        "differingContentLengths": (
            "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "Content-Length"
        ),
        "badPercentEscape": ("GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400, "percent"),
        "missingHost": ("GET / HTTP/1.1\r\n\r\n", 400, "Host header"),
        "duplicateHost": ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "Host headers"),
    ]

    @Test(arguments: [
        "malformed", "headTooLarge", "declaredBodyTooLarge", "chunkedBodyTooLarge", "differingContentLengths",
        "badPercentEscape", "missingHost", "duplicateHost",
    ])
    func answersProtocolErrorsWithJSONAndCloses(caseName: String) async throws {
        let (input, status, messagePart) = try #require(Self.errorCases[caseName])
        let limited = TestHandler(bodyLimit: 1000) { _ in .response(HTTPResponse(status: 200)) }
        try await withServer(handler: limited) { _, port in
            let (response, closed) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(input)
                return (try client.readResponse(), client.isClosedByServer())
            }
            #expect(response.status == status)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("Connection") == "close")
            #expect(response.text.hasPrefix("{\"error\":\""))
            #expect(response.text.contains(messagePart))
            #expect(closed)
        }
    }

    @Test func answersASlowlorisClientWith408() async throws {
        try await withServer(.loopback(headerTimeout: 0.3), handler: echo) { _, port in
            let (response, closed) = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n")
                for _ in 0..<3 {
                    usleep(50_000)
                    try client.send("X-Slow: 1\r\n")
                }
                return (try client.readResponse(), client.isClosedByServer())
            }
            #expect(response.status == 408)
            #expect(closed)
        }
    }

    /// A body trickling in below the minimum data rate is answered 408 after the grace, though every byte used to
    /// restart its timer.
    @Test func answersATricklingBodyWith408() async throws {
        let response = try await self.postSlowly(
            rate: MinimumDataRate(bytesPerSecond: 1_000, graceSeconds: 0.2), length: 100_000, piece: "x", pieces: 5,
            pauseMicroseconds: 50_000)
        #expect(response.status == 408)
        #expect(response.text.contains("slower than 1000 bytes/s"))
    }

    /// A body arriving in pieces faster than the minimum rate is answered as usual.
    @Test func answersABodyThatKeepsUpInPieces() async throws {
        let piece = String(repeating: "y", count: 300)
        let response = try await self.postSlowly(
            rate: MinimumDataRate(bytesPerSecond: 1_000, graceSeconds: 0.1), length: 3_000, piece: piece, pieces: 10,
            pauseMicroseconds: 30_000)
        #expect(response.status == 200)
        #expect(response.text == "POST /  " + String(repeating: piece, count: 10))
    }

    /// The body deadline bounds a body however it arrives.
    @Test func answersABodyPastItsDeadlineWith408() async throws {
        let response = try await self.postSlowly(
            rate: MinimumDataRate(bytesPerSecond: 0, graceSeconds: 0), deadline: 0.2, length: 100_000,
            piece: String(repeating: "z", count: 1_000), pieces: 6, pauseMicroseconds: 50_000)
        #expect(response.status == 408)
        #expect(response.text.contains("did not arrive within 0.2 s"))
    }

    /// POSTs a body of `length` bytes to an echo server with the given rate and deadline, sending `pieces` copies
    /// of `piece` with a pause after each, then reads the answer.
    private func postSlowly(
        rate: MinimumDataRate, deadline: Double? = nil, length: Int, piece: String, pieces: Int,
        pauseMicroseconds: UInt32
    ) async throws -> HTTPTestClient.Response {
        var configuration = HTTPServerConfiguration.loopback()
        configuration.minimumDataRate = rate
        configuration.bodyDeadlineSeconds = deadline
        let response = Slot<HTTPTestClient.Response>()
        try await withServer(configuration, handler: echo) { _, port in
            let answer = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(length)\r\n\r\n")
                for _ in 0..<pieces {
                    try client.send(piece)
                    usleep(pauseMicroseconds)
                }
                return try client.readResponse()
            }
            response.set(answer)
        }
        return try #require(response.current)
    }

    @Test func closesAnIdleKeepAliveConnection() async throws {
        try await withServer(.loopback(idleTimeout: 0.3), handler: echo) { server, port in
            let closed = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                _ = try client.readResponse()
                return client.isClosedByServer()
            }
            #expect(closed)
            #expect(
                await eventually(seconds: 1) { server.statistics.openConnections == 0 },
                "the server's count drops right after it closes the socket")
        }
    }
}
