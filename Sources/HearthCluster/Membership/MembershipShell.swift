import HearthCore
package import HearthSystem

/// Runs this node's `SWIMInstance`: calls its periodic tick, fires the timers it asks for, hands it the messages
/// peers send, and carries out its directives (sends through `send`, connects through `resolve`, events to
/// `events`). The instance decides everything; this shell only does the I/O and keeps the clock.
///
/// Messages arrive on the peer transport's thread (`receive`), ticks and timers on `run()`'s tasks; the instance
/// sits behind one lock, held only for a handler call, so directives are carried out outside it and in order.
package final class MembershipShell: Sendable {
    /// Sends one encoded `SWIMMessage` to a member; loss is fine.
    package typealias Send = @Sendable (NodeID, [UInt8]) -> Void
    /// The configured member at a seed address, when the configuration knows it (joining through an unknown
    /// address needs the transport to learn the name in its handshake).
    package typealias Resolve = @Sendable (SWIMAddress) -> NodeID?

    private let instance: Lock<SWIMInstance>
    private let send: Send
    private let resolve: Resolve
    private let log: Log
    private let started = MonotonicClock.now()
    private let timers: AsyncStream<(SWIMTimer, Duration)>.Continuation
    private let timerRequests: AsyncStream<(SWIMTimer, Duration)>
    private let eventSink: AsyncStream<SWIMEvent>.Continuation
    /// Every membership change this node sees, in order.
    package let events: AsyncStream<SWIMEvent>

    package init(instance: SWIMInstance, log: Log, send: @escaping Send, resolve: @escaping Resolve) {
        self.instance = Lock(instance)
        self.send = send
        self.resolve = resolve
        self.log = log
        (self.timerRequests, self.timers) = AsyncStream.makeStream()
        (self.events, self.eventSink) = AsyncStream.makeStream()
    }

    /// This node's record as it stands.
    package var myself: SWIMMember { self.instance.withLock { $0.myself } }

    /// Every other member known, tombstones included.
    package var members: [SWIMMember] { self.instance.withLock { $0.members } }

    /// Starts probing the members the configuration names (as if each had just completed a handshake).
    package func start(knownPeers: [NodeID]) {
        for peer in knownPeers {
            self.handle { instance, now in instance.onHandshake(peer: peer, now: now) }
        }
    }

    /// A frame of kind `membership` from `peer`; a message that cannot be decoded is logged and dropped.
    package func receive(_ payload: [UInt8], from peer: NodeID) {
        let message: SWIMMessage
        do {
            message = try SWIMMessage(decoding: payload)
        } catch {
            self.log.warning("membership.bad_message", ["from": peer.name, "error": error.detail])
            return
        }
        self.handle { instance, now in instance.onMessage(message, from: peer, now: now) }
    }

    /// Ticks every probe interval and fires timers until cancelled, then leaves the cluster gracefully.
    package func run() async {
        let interval = self.instance.withLock { $0.settings.probeInterval }
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { break }
                    self.handle { instance, now in instance.onPeriodicTick(now: now) }
                }
            }
            group.addTask {
                await withTaskCancellationHandler {
                    await withDiscardingTaskGroup { timers in
                        for await (timer, delay) in self.timerRequests {
                            timers.addTask {
                                try? await Task.sleep(for: delay)
                                guard !Task.isCancelled else { return }
                                self.handle { instance, now in instance.onTimeout(timer, now: now) }
                            }
                        }
                        timers.cancelAll()
                    }
                } onCancel: {
                    self.timers.finish()
                }
            }
        }
        self.handle { instance, now in instance.leave(now: now) }
        self.eventSink.finish()
    }

    /// Runs one handler under the lock, then carries out its directives.
    private func handle(_ body: (inout SWIMInstance, Duration) -> [SWIMDirective]) {
        let now = Duration.nanoseconds(Int64(MonotonicClock.now() - self.started))
        let directives = self.instance.withLock { body(&$0, now) }
        for directive in directives {
            switch directive {
            case .send(let message, let peer):
                self.send(peer, message.encoded())
            case .connect(let address):
                guard let peer = self.resolve(address) else {
                    self.log.warning("membership.unknown_seed", ["address": "\(address)"])
                    continue
                }
                self.handle { instance, now in instance.onHandshake(peer: peer, now: now) }
            case .startTimer(let timer, let delay):
                self.timers.yield((timer, delay))
            case .event(let event):
                self.log.info("membership.\(Self.name(of: event))", ["member": "\(event.member)"])
                self.eventSink.yield(event)
            }
        }
    }

    private static func name(of event: SWIMEvent) -> String {
        switch event {
        case .joined: "joined"
        case .alive: "alive"
        case .suspect: "suspect"
        case .dead: "dead"
        case .left: "left"
        case .rejoined: "rejoined"
        }
    }
}
