import HearthNet
import HearthTestKit
import Testing

/// The blocking client against real loopback sockets: a canned peer on its own thread, a port nothing listens on,
/// and a listener that never answers.
@Suite struct BlockingHTTPClientLoopbackTests {
    @Test func sendsEachRequestOnItsOwnConnectionAskingToCloseAndReadsEveryFraming() throws {
        let peer = try CannedHTTPPeer(responses: [
            "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"par\r\nA\r\ntitioned\":\r\n4\r\n[]}\n\r\n0\r\n\r\n",
            "HTTP/1.1 503 Service Unavailable\r\n\r\n{\"error\":\"Shard 3 has no leader yet.\"}",
        ])
        let client = BlockingHTTPClient(timeout: .seconds(30))
        let address = try SocketAddress(host: "127.0.0.1", port: peer.port)
        let health = try client.request("GET", address, "/.health")
        let partition = try client.request(
            "POST", address, "/.cluster/partition", body: Array(#"{"peers":["n3"]}"#.utf8))
        let ready = try client.request("GET", address, "/.ready")
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok"}"#)
        #expect(partition.text == "{\"partitioned\":[]}\n")
        #expect(ready.status == 503)
        #expect(ready.text == #"{"error":"Shard 3 has no leader yet."}"#)
        #expect(
            peer.requests.all == [
                "GET /.health HTTP/1.1\r\nHost: 127.0.0.1:\(peer.port)\r\nConnection: close\r\n\r\n",
                "POST /.cluster/partition HTTP/1.1\r\nHost: 127.0.0.1:\(peer.port)\r\nConnection: close\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"peers\":[\"n3\"]}",
                "GET /.ready HTTP/1.1\r\nHost: 127.0.0.1:\(peer.port)\r\nConnection: close\r\n\r\n",
            ])
    }

    @Test func saysNothingListensWhenThePortIsClosed() throws {
        let port = try ReservedPort()
        let address = try port.address
        #expect {
            try BlockingHTTPClient(timeout: .seconds(30)).request("GET", address, "/.health")
        } throws: { error in
            (error as? HTTPClientError)?.code == .refused
                && (error as? HTTPClientError)?.message.contains("127.0.0.1:\(port.port)") == true
        }
    }

    /// A listener that completes connections in the kernel but never accepts or answers: the client gives up at
    /// its deadline.
    @Test func givesUpAtItsDeadlineWhenTheServerNeverAnswers() throws {
        let port = try ReservedPort()
        try port.listen()
        let address = try port.address
        let started = ContinuousClock.now
        #expect {
            try BlockingHTTPClient(timeout: .milliseconds(300)).request("GET", address, "/.ready")
        } throws: { error in
            (error as? HTTPClientError)?.code == .timedOut
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(10), "\(elapsed)")
    }
}
