import HearthCore
import HearthDatabase
import HearthNet
import HearthRules
import HearthSystem
import HearthWire
import Synchronization

/// One client of the realtime protocol: its transport, its listens, its queued onDisconnect writes and its auth.
///
/// The transport side (WebSocket callbacks on the reactor thread, or long-poll requests) only reassembles frames
/// and queues whole messages; `run()` processes them strictly in arrival order in the session's own task, as the
/// protocol requires (§1.5, §1.9.7). When the inbound side ends, for any reason, `run()` drops the listens, runs
/// the onDisconnect writes in registration order and then reports the session finished.
final class WireSession: WebSocketMessageHandler {
    let id: String
    let namespace: String
    let host: String
    let context: WireSessionContext
    /// The session this one replaces (`ls=`): its onDisconnects run before this session handles anything.
    private let replaces: WireSession?
    private let inbound: AsyncStream<String>
    private let inboundContinuation: AsyncStream<String>.Continuation
    let shared: Lock<Shared>
    /// Answers of pipelined writes, sent in request order.
    let acknowledgements = WireAcknowledgements()
    /// The scratch space the reactor decodes this client's writes in (`orderWriteAtOnce`), kept from one write to
    /// the next so that decoding one allocates little beyond the write itself, and the rules it checks them under.
    let writeScratch = Lock(WriteScratch())
    /// Who this session is to the compare-and-set turns (`ConditionalWriteGate`): a number no HTTP connection has.
    let caller = WireSession.callers.add(1, ordering: .relaxed).newValue | (1 << 63)
    private static let callers = Atomic<UInt64>(0)

    struct Shared {
        var transport: (any WireTransport)?
        var assembler: WireFrameAssembler
        var isTerminated = false
        var listens: [WireListenKey: WireListen] = [:]
        var onDisconnect: [WireOnDisconnect] = []
        /// Bytes of `onDisconnect`'s operations (`WireOnDisconnect.bytes`), held to the per-session limit.
        var onDisconnectBytes = 0
        /// Bytes charged for the listens and onDisconnect operations held (`WireSession+Holdings`).
        var heldBytes = 0
        /// Who the client authenticated as, and until when; a new `auth` or `unauth` replaces it.
        var authentication = Authentication(identity: .anonymous, expires: nil)
        /// Counts `auth`/`unauth` requests, so an expiry timer set for an older credential does nothing.
        var authGeneration: UInt64 = 0
        /// The timer that ends the current credential at its expiry (`expire(_:at:)`), cancelled when replaced.
        var expiryTimer: Task<Void, any Error>?
        /// The WebSocket a long-polling session is upgrading to, its framing, and data it sent before the switch.
        var secondary: (any WireTransport)?
        var secondaryAssembler: WireFrameAssembler
        var secondaryBuffer: [String] = []
        /// Bytes of `secondaryBuffer`, held to `maximumQueuedBytes` with the queued backlog.
        var secondaryBufferBytes = 0
        var isSwitched = false
        /// The long-polling client's disconnect frame, held open while the session lives on the long poll.
        var disconnectFrame: WireDisconnectFrame?
        var isFinished = false
        /// Bytes of messages queued for `run()` and not yet processed.
        var queuedBytes = 0
        /// `run()` takes messages (the session it replaces has finished).
        var isRunning = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    init(
        id: String, namespace: String, host: String, context: WireSessionContext, replaces: WireSession?
    ) {
        self.id = id
        self.namespace = namespace
        self.host = host
        self.context = context
        self.replaces = replaces
        (self.inbound, self.inboundContinuation) = AsyncStream.makeStream(of: String.self)
        let assembler = WireFrameAssembler(maximumMessageBytes: context.maximumMessageBytes)
        self.shared = Lock(Shared(assembler: assembler, secondaryAssembler: assembler))
    }

    /// A fresh 32-character alphanumeric session id, as Firebase issues them.
    static func makeID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var random = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Attaches a transport and sends the handshake, which must be the first message.
    func attach(_ transport: any WireTransport) {
        self.shared.withLock { $0.transport = transport }
        let handshake = WireHandshake(timestamp: self.context.database.now(), host: self.host, sessionID: self.id)
        transport.send(WireServerMessage.handshake(handshake).encoded())
    }

    /// Queues one whole message for `run()`; a client whose backlog passes the bound is disconnected.
    /// The message's bytes count against the client memory budget until it is processed (charged before it is
    /// queued, so `run()` never releases them first).
    func enqueue(message: String) {
        let transport = self.shared.withLock { $0.transport }
        transport?.holdInbound(message.utf8.count)
        guard self.shared.withLock({ self.enqueue(message, holding: &$0) }) else {
            transport?.holdInbound(-message.utf8.count)
            return self.terminateForBacklog()
        }
    }

    /// Queues a message while the caller holds `shared` (keeping order with the caller's other changes).
    /// - Returns: false when the backlog bound is passed; the caller then calls `terminateForBacklog()` after
    ///   releasing the lock.
    func enqueue(_ message: String, holding shared: inout Shared) -> Bool {
        shared.queuedBytes += message.utf8.count
        guard shared.queuedBytes <= self.context.maximumQueuedBytes else { return false }
        self.inboundContinuation.yield(message)
        return true
    }

    func terminateForBacklog() {
        self.terminate(reason: "Too many unprocessed requests: send fewer at a time and wait for responses.")
    }

    /// Takes one transport frame; a complete message is queued, a framing error ends the session. The frames of a
    /// message in progress count against the client memory budget until it completes. A write that finds the
    /// session's task idle is ordered here (`orderWriteAtOnce`), with the identity read under the same hold of the
    /// lock.
    func receive(frame: String) {
        let (outcome, held, transport, idleAs) = self.shared.withLock { shared in
            guard !shared.isTerminated else {
                return (Result<String?, WireProtocolError>.success(nil), 0, shared.transport, AuthIdentity?.none)
            }
            let before = shared.assembler.heldBytes
            let outcome = Result { () throws(WireProtocolError) -> String? in try shared.assembler.onFrame(frame) }
            // The task has taken every message queued before this one (and any credential they changed).
            let idleAs = shared.isRunning && shared.queuedBytes == 0 ? shared.authentication.identity : nil
            return (outcome, shared.assembler.heldBytes - before, shared.transport, idleAs)
        }
        self.charge(held, to: transport)
        switch outcome {
        case .success(let message?):
            guard let identity = idleAs, self.orderWriteAtOnce(message, as: identity) else {
                return self.enqueue(message: message)
            }
        case .success(nil): break
        case .failure(let error): self.terminate(reason: error.message)
        }
    }

    /// `receive(frame:)` of a frame's UTF-8 bytes (valid), read where the WebSocket left them: a frame that is a
    /// whole message (nearly every one) is not made a `String` when it is a write ordered here. The same outcome
    /// as `receive(frame:)` of its `String`, to which every other frame goes (a count, a part of a message, one
    /// past the size limit, one for a terminated session); the session's lock is held once for a whole one.
    func receive(utf8Frame frame: UnsafeBufferPointer<UInt8>) {
        let whole = self.shared.withLock { shared -> WholeFrame in
            guard !shared.isTerminated, shared.assembler.isWholeMessage(frame) else { return .notWhole }
            // The task has taken every message queued before this one (and any credential they changed).
            return .whole(idleAs: shared.isRunning && shared.queuedBytes == 0 ? shared.authentication.identity : nil)
        }
        switch whole {
        case .notWhole:
            self.receive(frame: String(decoding: frame, as: UTF8.self))
        case .whole(let idleAs):
            // A whole message holds nothing back in the assembler: there is nothing to charge.
            guard let identity = idleAs, self.orderWriteAtOnce(utf8: frame, as: identity) else {
                return self.enqueue(message: String(decoding: frame, as: UTF8.self))
            }
        }
    }

    /// What `receive(utf8Frame:)` found under the lock.
    private enum WholeFrame {
        /// The frame goes the general way.
        case notWhole
        /// The frame is a whole message; the identity to order it as, when the session's task is idle.
        case whole(idleAs: AuthIdentity?)
    }

    /// Ends the session: closes the transport (and a WebSocket it was switching to) with `reason` and stops
    /// processing further messages.
    func terminate(reason: String) {
        let (transport, secondary) = self.shared.withLock { shared in
            shared.isTerminated = true
            return (shared.transport, shared.isSwitched ? nil : shared.secondary)
        }
        transport?.close(reason: reason)
        secondary?.close(reason: reason)
        self.inboundContinuation.finish()
    }

    /// The node is stopping: tells the client (WebSocket 1001) and winds the session down, running its
    /// onDisconnects.
    func shutDown() {
        let transport = self.shared.withLock { shared -> (any WireTransport)? in
            shared.isTerminated = true
            return shared.transport
        }
        transport?.closeForShutdown()
        self.inboundContinuation.finish()
    }

    /// The transport is gone; `run()` winds the session down.
    func transportClosed() {
        self.inboundContinuation.finish()
    }

    /// Sends a transport-level liveness probe.
    func ping() {
        let transport = self.shared.withLock { $0.transport }
        transport?.ping()
        if let longPoll = transport as? WireLongPollTransport, longPoll.isClosed {
            self.terminate(reason: "The long-polling client went away.")
        }
    }

    /// The long-polling transport, while the session uses one.
    var longPoll: WireLongPollTransport? {
        self.shared.withLock { $0.transport } as? WireLongPollTransport
    }

    var isTerminated: Bool { self.shared.withLock { $0.isTerminated } }

    /// Queues a message on the transport; `false` when there is none or it is closed.
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        guard let transport = self.shared.withLock({ $0.transport }) else { return false }
        return transport.send(message)
    }

    /// Encodes and queues a message on the transport; `false` when there is none or it is closed.
    @discardableResult
    func send(_ message: WireServerMessage) -> Bool {
        guard let transport = self.shared.withLock({ $0.transport }) else { return false }
        return transport.send(message)
    }

    /// Queues the acknowledgement of write `id` (`ok`) on the transport; `false` when there is none or it is closed.
    @discardableResult
    func sendAcknowledgement(id: Int64) -> Bool {
        guard let transport = self.shared.withLock({ $0.transport }) else { return false }
        return transport.sendAcknowledgement(id: id)
    }

    /// Processes messages in order until the transport closes, then cleans up and runs the onDisconnects.
    func run() async {
        if let replaces { await replaces.waitUntilFinished() }
        await self.context.database.waitUntilServing()
        self.shared.withLock { $0.isRunning = true }
        for await message in self.inbound {
            guard !self.isTerminated else { break }
            await self.process(message)
            let transport = self.shared.withLock { shared in
                shared.queuedBytes -= message.utf8.count
                return shared.transport
            }
            transport?.holdInbound(-message.utf8.count)
        }
        await self.acknowledgements.barrier()
        await self.finish()
    }

    /// Returns once `run()` has finished, including the onDisconnect writes.
    func waitUntilFinished() async {
        await withCheckedContinuation { continuation in
            let isFinished = self.shared.withLock { shared -> Bool in
                if !shared.isFinished { shared.finishWaiters.append(continuation) }
                return shared.isFinished
            }
            if isFinished { continuation.resume() }
        }
    }

    private func finish() async {
        let (listens, operations, held, transport) = self.shared.withLock { shared in
            shared.isTerminated = true
            let listens = Array(shared.listens.values)
            shared.listens = [:]
            let operations = shared.onDisconnect
            shared.onDisconnect = []
            shared.onDisconnectBytes = 0
            let held = shared.heldBytes
            shared.expiryTimer?.cancel()
            shared.expiryTimer = nil
            return (listens, operations, held, self.hold(-held, holding: &shared))
        }
        self.charge(-held, to: transport)
        for listen in listens { self.remove(listen) }
        self.context.access.conditionalWrites.connectionClosed(self.caller)
        self.releaseDisconnectFrame()
        for operation in operations { await self.runOnDisconnect(operation) }
        let waiters = self.shared.withLock { shared in
            shared.isFinished = true
            let waiters = shared.finishWaiters
            shared.finishWaiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func remove(_ listen: WireListen) {
        listen.stop()
        self.context.database.view.removeListener(listen)
    }

    // MARK: WebSocketMessageHandler (reactor thread; never blocks)

    func opened(_ socket: WebSocketConnection) {
        self.attach(WebSocketWireTransport(socket: socket))
    }

    func received(text: String) {
        self.receive(frame: text)
    }

    func received(utf8Text: UnsafeBufferPointer<UInt8>) {
        self.receive(utf8Frame: utf8Text)
    }

    func received(binary: [UInt8]) {
        self.terminate(reason: "Binary frames are not part of the Firebase protocol; send JSON text frames.")
    }

    func closed(code: UInt16?, reason: String) {
        self.transportClosed()
    }
}
