import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Shares batches among PUTs and says each batch is ordered as soon as it gets it; the first batch is answered
/// only once a later one has reached it (or after 10 s), so a connection that waited for answers before taking
/// more would show it.
private final class ReadAheadHandler: HTTPRequestHandler {
    /// The size of each batch, in hand-off order.
    let handOffs = Recorder<Int>()
    /// Whether another batch came while the first was still unanswered.
    let overlapped = Mutex<Bool?>(nil)

    func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        method == "PUT"
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        self.handOffs.append(1)
        return PipelinedBurst.echoPath(request)
    }

    func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        requests.map(PipelinedBurst.echoPath)
    }

    func handle(batch requests: [HTTPRequest], ordered: @escaping @Sendable () -> Void) async -> [HTTPReply] {
        let isFirst = self.handOffs.all.isEmpty
        self.handOffs.append(requests.count)
        ordered()
        if isFirst {
            let overlapped = await self.handOffs.wait(seconds: 10) { $0.count > 1 }
            self.overlapped.withLock { $0 = overlapped }
        }
        return requests.map(PipelinedBurst.echoPath)
    }
}

/// A connection takes the pipelined requests behind a batch once the application has ordered it, not once it has
/// answered it, and its answers still leave in request order.
@Suite(.serialized) struct HTTPServerReadAheadLoopbackTests {
    /// 3,000 pipelined PUTs reach the application in more than one batch, the second before the first is answered,
    /// and their 3,000 answers come back in order; a GET behind them is answered after them.
    @Test func aBurstIsOrderedInSeveralBatchesWithoutWaitingForAnswers() async throws {
        let handler = ReadAheadHandler()
        let count = 3000
        try await withServer(handler: handler) { _, port in
            let bodies = try await PipelinedBurst.send(count: count, port: port)
            #expect(bodies == PipelinedBurst.expected(count: count))
        }
        let sizes = handler.handOffs.all
        #expect(sizes.count > 2, "batches: \(sizes)")
        #expect(sizes.reduce(0, +) == count + 1)
        #expect(handler.overlapped.withLock { $0 } == true, "the second batch came before the first was answered")
    }
}
