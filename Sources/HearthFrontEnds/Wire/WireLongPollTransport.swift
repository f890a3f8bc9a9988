import HearthSystem
import HearthWire

/// The long-polling transport (`/.lp`, reference §1.12) for browsers that once failed to open a WebSocket.
///
/// Outbound messages queue here until the client's next poll collects them as a script calling
/// `pRTLPCB(<response number>, [messages…])`; response numbers count up from 0 across responses that carry
/// messages. A poll waits at most `holdSeconds` for something to send, and a newer poll releases an older held
/// one, so the client always has a request in flight. Inbound data arrives as web-safe base64 segments, possibly
/// out of order, which `WireLongPollAssembler` turns back into messages, holding a bounded amount. Outbound
/// messages waiting for a poll are bounded too: a client that lets more than `maximumQueuedBytes` pile up is
/// closed, as a WebSocket that stops reading is. Both are charged to the node's `WireLongPollMemory`, which ends the
/// session whose bytes would pass it; closing gives everything back. A client that drops its disconnect frame
/// is gone at once (`WireDisconnectFrame`); one that stops polling without a word is treated as gone after three
/// hold periods.
final class WireLongPollTransport: WireTransport {
    let password: String
    private let holdSeconds: Double
    /// The most bytes of outbound messages waiting for the client's next poll.
    private let maximumQueuedBytes: Int
    /// What all long-polling sessions of the node hold together.
    private let memory: WireLongPollMemory
    private let state: Lock<State>

    private struct State {
        var queue: [[UInt8]] = []
        var queuedBytes = 0
        var nextResponse = 0
        var held: CheckedContinuation<Void, Never>?
        var isClosed = false
        var isCloseSent = false
        var assembler: WireLongPollAssembler
        var lastPoll = ContinuousClock.now
        /// Bytes this transport took from `memory` (the session itself, segments held, answers queued, and what
        /// the session charges through `holdInbound`); given back on close.
        var pooledBytes = WireLongPollMemory.sessionBytes
        /// The part of `pooledBytes` charged through `holdInbound`, which releases never take below zero.
        var inboundBytes = 0
    }

    /// - Parameters:
    ///   - maximumMessageBytes: the largest inbound message (`--max-message-bytes`), for the segment assembler.
    ///   - maximumQueuedBytes: the most outbound bytes waiting for a poll (`--max-queued-bytes`).
    ///   - memory: the node's pool for what long-polling sessions hold, from which the caller already took
    ///     `WireLongPollMemory.sessionBytes` for this transport.
    init(
        password: String, maximumMessageBytes: Int, maximumQueuedBytes: Int, memory: WireLongPollMemory,
        holdSeconds: Double = 20
    ) {
        self.password = password
        self.holdSeconds = holdSeconds
        self.maximumQueuedBytes = maximumQueuedBytes
        self.memory = memory
        self.state = Lock(State(assembler: WireLongPollAssembler(maximumMessageBytes: maximumMessageBytes)))
    }

    func send(_ message: WireOutbound) -> Bool {
        let (isQueued, held) = self.state.withLock { self.queue(message, holding: &$0) }
        held?.resume()
        return isQueued
    }

    /// Queues `last` and closes under one lock: a held poll wakes only once both are done, so the script that
    /// delivers `last` always ends with `pLPCommand('close')` (the long poll's answer to `n`, reference §1.12).
    func close(reason: String, after last: WireOutbound) {
        let held = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            let woken = self.queue(last, holding: &state).held
            if !state.isClosed { self.closeHolding(&state) }
            defer { state.held = nil }
            return woken ?? state.held
        }
        held?.resume()
    }

    /// Queues `message` for the next poll while the caller holds `state`; one that would pass
    /// `maximumQueuedBytes` or `memory` drops the queue and closes the transport instead.
    /// - Returns: whether it was queued, and the held poll to wake once the lock is released.
    private func queue(_ message: WireOutbound, holding state: inout State) -> (
        isQueued: Bool, held: CheckedContinuation<Void, Never>?
    ) {
        guard !state.isClosed else { return (false, nil) }
        defer { state.held = nil }
        let bytes = message.message.count
        guard bytes <= self.maximumQueuedBytes - state.queuedBytes, self.memory.take(bytes) else {
            state.queue = []
            state.queuedBytes = 0
            self.closeHolding(&state)
            return (false, state.held)
        }
        state.pooledBytes += bytes
        state.queue.append(message.message)
        state.queuedBytes += bytes
        return (true, state.held)
    }

    func closeForShutdown() {
        self.close(reason: "The server is shutting down.")
    }

    func close(reason: String) {
        let held = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            self.closeHolding(&state)
            defer { state.held = nil }
            return state.held
        }
        held?.resume()
    }

    /// Marks the transport closed and gives back what it took from `memory`: the segments it held are dropped;
    /// answers still queued (the last ones, such as a shutdown reason) stay for the next poll, bounded by
    /// `maximumQueuedBytes`.
    private func closeHolding(_ state: inout State) {
        state.isClosed = true
        state.assembler = WireLongPollAssembler(maximumMessageBytes: state.assembler.maximumMessageBytes)
        self.memory.release(state.pooledBytes)
        state.pooledBytes = 0
        state.inboundBytes = 0
    }

    /// Charges what the session holds for its client (messages not yet processed, listens, onDisconnect
    /// operations) to the long-polling pool; past the pool the transport is closed, as a WebSocket is evicted past
    /// the client memory budget, and the client reconnects.
    func holdInbound(_ delta: Int) {
        let held = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isClosed else { return nil }
            if delta < 0 {
                let released = min(-delta, state.inboundBytes)
                self.memory.release(released)
                state.inboundBytes -= released
                state.pooledBytes -= released
                return nil
            }
            guard self.memory.take(delta) else {
                self.closeHolding(&state)
                defer { state.held = nil }
                return state.held
            }
            state.inboundBytes += delta
            state.pooledBytes += delta
            return nil
        }
        held?.resume()
    }

    /// Long polls have no ping; a client silent for three hold periods is closed instead.
    func ping() {
        let isStale = self.state.withLock { ContinuousClock.now - $0.lastPoll > .seconds(self.holdSeconds * 3) }
        if isStale { self.close(reason: "The long-polling client stopped polling.") }
    }

    var isClosed: Bool { self.state.withLock { $0.isClosed } }

    /// Files one inbound segment; returns the messages it completes, in order.
    /// - Throws: `WireProtocolError` when the segment breaks the assembler's bounds or completes a message that
    ///   is not valid base64 (`WireLongPollAssembler.receive`), or `.messageTooBig` when the node's long-polling sessions together would hold more than `memory` allows.
    func receive(_ segment: WireLongPollAssembler.Segment) throws(WireProtocolError) -> [String] {
        try self.state.withLock { state throws(WireProtocolError) -> [String] in
            guard !state.isClosed else { return [] }
            let before = state.assembler.heldBytes
            let messages = try state.assembler.receive(segment)
            let added = state.assembler.heldBytes - before
            if added < 0 {
                self.memory.release(-added)
                state.pooledBytes += added
            } else if self.memory.take(added) {
                state.pooledBytes += added
            } else {
                throw WireProtocolError(
                    .messageTooBig,
                    "This node holds too much for long-polling clients (\(self.memory.limit) bytes); retry "
                        + "later, or connect over WebSocket.")
            }
            return messages
        }
    }

    /// Answers one poll: waits up to `holdSeconds` for messages (releasing any older held poll), then returns the
    /// script that delivers them, followed by `pLPCommand('close', n)` once the transport is closed.
    func poll() async -> [UInt8] {
        let older = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.lastPoll = .now
            defer { state.held = nil }
            return state.held
        }
        older?.resume()
        let hold = self.holdSeconds
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForMessages() }
            group.addTask { try? await Task.sleep(for: .milliseconds(Int64(hold * 1000))) }
            await group.next()
            group.cancelAll()
            self.releaseHeld()
        }
        return self.drainScript()
    }

    private func waitForMessages() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let isReady = self.state.withLock { state -> Bool in
                    guard state.queue.isEmpty, !state.isClosed || state.isCloseSent else { return true }
                    state.held?.resume()
                    state.held = continuation
                    return false
                }
                if isReady { continuation.resume() }
            }
        } onCancel: {
            self.releaseHeld()
        }
    }

    private func releaseHeld() {
        self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.held = nil }
            return state.held
        }?.resume()
    }

    private func drainScript() -> [UInt8] {
        self.state.withLock { state in
            var script: [UInt8] = []
            if !state.queue.isEmpty {
                script += Array("pRTLPCB(\(state.nextResponse),[".utf8)
                script += Array(state.queue.joined(separator: [UInt8(ascii: ",")]))
                script += Array("]);\n".utf8)
                if !state.isClosed {
                    self.memory.release(state.queuedBytes)
                    state.pooledBytes -= state.queuedBytes
                }
                state.queue = []
                state.queuedBytes = 0
                state.nextResponse += 1
            }
            if state.isClosed, !state.isCloseSent {
                state.isCloseSent = true
                script += Array("pLPCommand('close',\(max(state.nextResponse - 1, 0)));\n".utf8)
            }
            return script
        }
    }

    /// The script that answers the start request: the callback shims for frame `callback`, the `start` command
    /// with the session's id and password, then whatever is queued (the handshake).
    func startScript(callback: String, id: String) -> [UInt8] {
        let shims = """
            function pLPCommand(c,a1,a2,a3,a4){var f=parent.window["pLPCommand\(callback)"];if(f){f(c,a1,a2,a3,a4);}}
            function pRTLPCB(pN,data){var f=parent.window["pRTLPCB\(callback)"];if(f){f(pN,data);}}
            pLPCommand('start','\(id)','\(self.password)');

            """
        return Array(shims.utf8) + self.drainScript()
    }
}
