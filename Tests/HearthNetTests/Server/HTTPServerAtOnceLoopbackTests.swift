import HearthNet
import HearthTestKit
import Synchronization
import Testing

/// Shares batches among PUTs; declines the first batch offered at once, so it goes to the task group, where it is
/// ordered at once but answered only once a batch behind it was taken at once (or after 10 s); takes every later
/// batch of PUTs at once on the reactor thread and answers it there and then.
private final class AtOnceHandler: HTTPRequestHandler {
    /// The size of each batch taken at once, in order.
    let takenAtOnce = Recorder<Int>()
    /// Whether a batch was taken at once while the first (async) one was still unanswered.
    let overlapped = Mutex<Bool?>(nil)
    /// Whether the first batch offered at once has been declined.
    private let declinedFirst = Mutex(false)

    func sharesBatches(
        method: String, path: String, query: [(name: String, value: String)], headers: HTTPHeaders
    ) -> Bool {
        method == "PUT"
    }

    func handleAtOnce(batch requests: [HTTPRequest], reply: @escaping @Sendable ([HTTPReply]) -> Void) -> Bool {
        let declines = self.declinedFirst.withLock { declined in
            defer { declined = true }
            return !declined
        }
        guard !declines, requests.allSatisfy({ $0.method == "PUT" }) else { return false }
        self.takenAtOnce.append(requests.count)
        reply(requests.map(PipelinedBurst.echoPath))
        return true
    }

    func handle(_ request: HTTPRequest) async -> HTTPReply {
        PipelinedBurst.echoPath(request)
    }

    func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        requests.map(PipelinedBurst.echoPath)
    }

    func handle(batch requests: [HTTPRequest], ordered: @escaping @Sendable () -> Void) async -> [HTTPReply] {
        ordered()
        if self.overlapped.withLock({ $0 }) == nil {
            let overlapped = await self.takenAtOnce.wait(seconds: 10) { !$0.isEmpty }
            self.overlapped.withLock { $0 = overlapped }
        }
        return requests.map(PipelinedBurst.echoPath)
    }
}

/// A batch the application takes on the reactor thread (`handleAtOnce`) never overtakes an earlier batch of its
/// connection still with the task group: it is taken only once that one is ordered, and its answers wait their turn.
@Suite(.serialized) struct HTTPServerAtOnceLoopbackTests {
    /// 3,000 pipelined PUTs: the first batch goes to the task group and is held unanswered until batches behind it
    /// were taken at once and answered; the client still gets every answer in request order, and a GET behind them
    /// (which no batch shares) after them.
    @Test func batchesTakenAtOnceAreAnsweredAfterAnEarlierAsyncBatch() async throws {
        let handler = AtOnceHandler()
        let count = 3000
        try await withServer(handler: handler) { _, port in
            let bodies = try await PipelinedBurst.send(count: count, port: port)
            #expect(bodies == PipelinedBurst.expected(count: count))
        }
        #expect(handler.overlapped.withLock { $0 } == true, "a batch was taken at once behind the unanswered first")
        #expect(!handler.takenAtOnce.all.isEmpty)
    }
}
