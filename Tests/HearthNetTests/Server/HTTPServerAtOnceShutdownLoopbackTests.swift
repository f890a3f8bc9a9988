import HearthNet
import HearthTestKit
import Testing

/// Shares batches among PUTs and takes each batch of them at once, answering it 0.3 s later from a thread of its own,
/// as the write loop answers a batch it took.
private final class LateAnswerHandler: HTTPRequestHandler {
    let log = EventLog()

    func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        method == "PUT"
    }

    func handleAtOnce(batch requests: [HTTPRequest], reply: @escaping @Sendable ([HTTPReply]) -> Void) -> Bool {
        guard requests.allSatisfy({ $0.method == "PUT" }) else { return false }
        self.log.append("taken")
        Task.detached {
            await uncancellableSleep(seconds: 0.3)
            reply(requests.map { _ in .response(HTTPResponse(status: 200, body: Array("finished".utf8))) })
        }
        return true
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        .response(HTTPResponse(status: 404))
    }
}

/// A graceful shutdown waits for the replies of a batch taken at once (`OutstandingReplies`), which leaves the count
/// only once its replies reached the connection: the client still gets its answer.
@Suite(.serialized) struct HTTPServerAtOnceShutdownLoopbackTests {
    @Test func gracefulShutdownAnswersABatchTakenAtOnce() async throws {
        let handler = LateAnswerHandler()
        let server = HTTPServer(configuration: .loopback(), handler: handler)
        let response = try await responseAcrossGracefulShutdown(
            server, request: "PUT /late HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx",
            started: { await handler.log.wait { $0 == ["taken"] } })
        #expect(response?.status == 200)
        #expect(response?.text == "finished")
        #expect(server.statistics.openConnections == 0)
    }
}
