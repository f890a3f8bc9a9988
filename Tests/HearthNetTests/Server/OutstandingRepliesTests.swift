import Testing

@testable import HearthNet

/// The count of batches whose replies the server waits for at shutdown: batches at once stop joining it once it is
/// closed, its waiters go on only when the last batch ends, and a batch taken at once ends when its replies reach the
/// handler or are discarded.
@Suite struct OutstandingRepliesTests {
    /// Closing refuses later batches at once but keeps counting those already in; `wait` returns once they end.
    @Test func closingRefusesBatchesAtOnceAndWaitingEndsWithTheLastBatch() async {
        let outstanding = OutstandingReplies()
        #expect(outstanding.beginAtOnce())
        outstanding.begin()
        outstanding.close()
        #expect(!outstanding.beginAtOnce(), "no batch is taken at once after close")
        let waiting = Task { await outstanding.wait() }
        outstanding.end()
        outstanding.end()
        await waiting.value
        await outstanding.wait()
    }

    /// A batch taken at once whose reply is discarded (its connection is gone, or the reactor stopped) still leaves
    /// the count, so shutdown does not wait for it for ever.
    @Test func aDiscardedReplyOfABatchAtOnceEndsItsCount() async {
        let outstanding = OutstandingReplies()
        #expect(outstanding.beginAtOnce())
        outstanding.close()
        HTTPBatchReply(batch: 0, replies: [], outstanding: outstanding).discard()
        await outstanding.wait()
    }
}
