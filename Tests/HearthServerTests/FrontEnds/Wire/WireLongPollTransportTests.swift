import HearthWire
import Testing

@testable import HearthFrontEnds

/// The long-polling transport's own guarantees, without a node.
@Suite struct WireLongPollTransportTests {
    /// A transport with room to spare and a short hold, so a poll nothing wakes cannot stall the run for long.
    private static func transport() -> WireLongPollTransport {
        WireLongPollTransport(
            password: "pw", maximumMessageBytes: 1 << 16, maximumQueuedBytes: 1 << 16,
            memory: WireLongPollMemory(limit: 1 << 20), holdSeconds: 5)
    }

    /// The answer to `n` and the close reach a poll together, whether the poll was already waiting or comes after:
    /// the script never carries the `n` without `pLPCommand('close')` (repeated, since a waiting poll once woke
    /// between the two and answered with the `n` alone).
    @Test func theLastMessageAndTheCloseReachAPollTogether() async {
        let expected = #"pRTLPCB(0,[{"t":"c","d":{"t":"n","d":{}}}]);"# + "\npLPCommand('close',0);\n"
        for _ in 0..<2000 {
            let transport = Self.transport()
            let poll = Task { await transport.poll() }
            await Task.yield()
            transport.close(
                reason: "Upgraded to WebSocket.", after: WireOutbound(WireServerMessage.endOfTransmission.encoded()))
            let script = String(decoding: await poll.value, as: UTF8.self)
            guard script == expected else {
                Issue.record("a poll answered \(script)")
                return
            }
        }
    }
}
