import Glibc
import HearthNet
import HearthTestKit
import Testing

@Suite(.serialized) struct BlockingHTTPClientLoopbackTests {
    private static let echo = TestHandler { request in
        let text = "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))"
        var headers = HTTPHeaders()
        headers.add("X-Connection", request.headers["Connection"] ?? "")
        return .response(
            HTTPResponse(status: request.path == "/missing" ? 404 : 200, headers: headers, body: Array(text.utf8)))
    }

    @Test func getsAndPostsOverOneConnectionEachThatItAsksToClose() async throws {
        try await withServer(handler: Self.echo) { server, port in
            let (get, post, missing) = try await onDedicatedThread {
                let client = BlockingHTTPClient(timeout: .seconds(60))
                let address = try SocketAddress(host: "127.0.0.1", port: port)
                return (
                    try client.request("GET", address, "/.health"),
                    try client.request("POST", address, "/.cluster/heal", body: Array(#"{"peers":[]}"#.utf8)),
                    try client.request("GET", address, "/missing")
                )
            }
            #expect(get.status == 200)
            #expect(get.text == "GET /.health ")
            #expect(get.headers["X-Connection"] == "close")
            #expect(post.text == #"POST /.cluster/heal {"peers":[]}"#)
            #expect(missing.status == 404)
            #expect(server.statistics.acceptedConnections == 3)
        }
    }

    @Test func saysNothingListensWhenThePortIsClosed() async throws {
        let port = try #require(try FreePorts.take(1).first)
        let address = try SocketAddress(host: "127.0.0.1", port: port)
        #expect {
            try BlockingHTTPClient(timeout: .seconds(2)).request("GET", address, "/.health")
        } throws: { error in
            (error as? HTTPClientError)?.code == .refused
                && (error as? HTTPClientError)?.message.contains("127.0.0.1:\(port)") == true
        }
    }

    /// A listener that accepts (through its backlog) but never answers: the client gives up at its deadline.
    @Test func givesUpAtItsDeadlineWhenTheServerNeverAnswers() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && listen(socket, 4) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        try #require(listening)
        let target = try SocketAddress(host: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)))
        let started = ContinuousClock.now
        #expect {
            try BlockingHTTPClient(timeout: .milliseconds(300)).request("GET", target, "/.ready")
        } throws: { error in
            (error as? HTTPClientError)?.code == .timedOut
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(10), "\(elapsed)")
    }
}
