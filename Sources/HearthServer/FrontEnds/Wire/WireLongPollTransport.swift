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
/// closed, as a WebSocket that stops reading is. A client that drops its disconnect frame
/// is gone at once (`WireDisconnectFrame`); one that stops polling without a word is treated as gone after three
/// hold periods.
final class WireLongPollTransport: WireTransport {
    let password: String
    private let holdSeconds: Double
    /// The most bytes of outbound messages waiting for the client's next poll.
    private let maximumQueuedBytes: Int
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
    }

    /// - Parameters:
    ///   - maximumMessageBytes: the largest inbound message (`--max-message-bytes`), for the segment assembler.
    ///   - maximumQueuedBytes: the most outbound bytes waiting for a poll (`--max-queued-bytes`).
    init(password: String, maximumMessageBytes: Int, maximumQueuedBytes: Int, holdSeconds: Double = 20) {
        self.password = password
        self.holdSeconds = holdSeconds
        self.maximumQueuedBytes = maximumQueuedBytes
        self.state = Lock(State(assembler: WireLongPollAssembler(maximumMessageBytes: maximumMessageBytes)))
    }

    func send(_ message: WireOutbound) -> Bool {
        let (isQueued, held) = self.state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.isClosed else { return (false, nil) }
            defer { state.held = nil }
            guard message.message.count <= self.maximumQueuedBytes - state.queuedBytes else {
                state.isClosed = true
                state.queue = []
                state.queuedBytes = 0
                return (false, state.held)
            }
            state.queue.append(message.message)
            state.queuedBytes += message.message.count
            return (true, state.held)
        }
        held?.resume()
        return isQueued
    }

    func closeForShutdown() {
        self.close(reason: "The server is shutting down.")
    }

    func close(reason: String) {
        let held = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isClosed = true
            defer { state.held = nil }
            return state.held
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
    ///   is not valid base64 (`WireLongPollAssembler.receive`).
    func receive(_ segment: WireLongPollAssembler.Segment) throws(WireProtocolError) -> [String] {
        try self.state.withLock { state throws(WireProtocolError) -> [String] in
            try state.assembler.receive(segment)
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
