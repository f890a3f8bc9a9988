import HearthCluster
import HearthTestKit

/// A seeded cluster of `SWIMInstance`s over HearthTestKit's `SimulatedNetwork`: the simulation plays the shell,
/// carrying out directives (messages go through the binary codec, timers through a time queue, `.connect` succeeds
/// when the seed is up and reachable) on a millisecond clock it advances itself, so a run replays from its seed.
struct SWIMSimulation {
    /// A directive's outcome that the simulation schedules: a node's periodic tick, one of its timers, or the
    /// handshake after a `.connect`. `run` tells a crashed node's leftovers from its restarted self's.
    private enum Wakeup {
        case tick(NodeID, run: Int)
        case timer(NodeID, run: Int, SWIMTimer)
        case handshake(NodeID, run: Int, peer: NodeID)
    }

    private struct Node {
        var instance: SWIMInstance
        var run: Int
    }

    let settings: SWIMSettings
    var network: SimulatedNetwork<NodeID, [UInt8]>
    private var nodes: [NodeID: Node] = [:]
    private var wakeups = SimulationQueue<Wakeup>()
    private var random: SeededRandom
    private var runs: [NodeID: Int] = [:]
    /// Simulated milliseconds.
    private(set) var now: UInt64 = 0
    /// Every event any node reported, in order.
    private(set) var events: [(at: UInt64, observer: NodeID, event: SWIMEvent)] = []
    private(set) var undecodable = 0

    init(seed: UInt64, faults: SimulatedNetwork<NodeID, [UInt8]>.Faults, settings: SWIMSettings = SWIMSettings()) {
        self.settings = settings
        self.network = SimulatedNetwork(seed: seed, faults: faults)
        self.random = SeededRandom(seed: seed ^ 0x5157_494D)
    }

    var liveNodes: [NodeID] { self.nodes.keys.sorted() }

    var probeIntervalMilliseconds: UInt64 { Self.milliseconds(self.settings.probeInterval) }

    /// Starts `id` with `generation`, joining through the addresses of `seeds`; its first tick comes within one
    /// probe interval.
    mutating func start(_ id: NodeID, generation: UInt64, seeds: [NodeID]) throws {
        let run = self.runs[id, default: 0] + 1
        self.runs[id] = run
        let myself = SWIMMember(id: id, address: SWIMTable.address(id), generation: generation)
        var instance = try SWIMInstance(
            myself: myself,
            settings: self.settings,
            random: SeededRandom(seed: self.random.next())
        )
        let directives = instance.join(seeds: seeds.map(SWIMTable.address), now: self.clock)
        self.nodes[id] = Node(instance: instance, run: run)
        self.perform(directives, by: id)
        let phase = UInt64.random(in: 0..<self.probeIntervalMilliseconds, using: &self.random)
        self.wakeups.insert(.tick(id, run: run), at: self.now + phase)
    }

    /// Stops `id` abruptly: its state, its timers and everything on the wire to or from it are gone.
    mutating func crash(_ id: NodeID) {
        self.nodes[id] = nil
        self.network.dropAll(involving: id)
    }

    /// What `observer` currently holds about `subject`.
    func view(of observer: NodeID, about subject: NodeID) -> SWIMMember? {
        self.nodes[observer]?.instance.member(subject)
    }

    /// Whether every live node other than `subject` sees it as `matching`.
    func everyoneSees(_ subject: NodeID, _ matching: (SWIMMember?) -> Bool) -> Bool {
        self.liveNodes.allSatisfy { $0 == subject || matching(self.view(of: $0, about: subject)) }
    }

    /// Whether every live node sees every other live node alive.
    var hasConverged: Bool {
        let live = self.liveNodes
        return live.allSatisfy { subject in self.everyoneSees(subject) { $0?.status == .alive } }
    }

    /// Runs until `condition` holds (checked every 50 simulated ms) or `limit` ms pass; returns the ms it took.
    mutating func run(for limit: UInt64, until condition: (SWIMSimulation) -> Bool = { _ in false }) -> UInt64? {
        let start = self.now
        var nextCheck = start
        while self.now <= start + limit {
            if self.now >= nextCheck {
                if condition(self) { return self.now - start }
                nextCheck = self.now + 50
            }
            self.step(notAfter: min(nextCheck, start + limit))
        }
        return nil
    }

    private var clock: Duration { .milliseconds(Int64(self.now)) }

    /// Handles everything due up to `time` (timers before messages at equal times), then moves the clock to `time`.
    private mutating func step(notAfter time: UInt64) {
        while true {
            let timerAt = self.wakeups.firstTime ?? .max
            let messageAt = self.network.nextDeliveryTime ?? .max
            guard min(timerAt, messageAt) <= time else { break }
            if timerAt <= messageAt {
                self.now = timerAt
                self.wake(self.wakeups.removeFirst())
            } else if let envelope = self.network.deliverNext(notAfter: messageAt) {
                self.now = messageAt
                self.deliver(envelope)
            }
        }
        self.now = time + 1
    }

    private mutating func wake(_ wakeup: Wakeup) {
        switch wakeup {
        case .tick(let id, let run):
            guard var node = self.nodes[id], node.run == run else { return }
            let directives = node.instance.onPeriodicTick(now: self.clock)
            self.nodes[id] = node
            self.perform(directives, by: id)
            self.wakeups.insert(.tick(id, run: run), at: self.now + self.probeIntervalMilliseconds)
        case .timer(let id, let run, let timer):
            guard var node = self.nodes[id], node.run == run else { return }
            let directives = node.instance.onTimeout(timer, now: self.clock)
            self.nodes[id] = node
            self.perform(directives, by: id)
        case .handshake(let id, let run, let peer):
            guard var node = self.nodes[id], node.run == run, self.nodes[peer] != nil else { return }
            let directives = node.instance.onHandshake(peer: peer, now: self.clock)
            self.nodes[id] = node
            self.perform(directives, by: id)
        }
    }

    private mutating func deliver(_ envelope: SimulatedNetwork<NodeID, [UInt8]>.Envelope) {
        guard var node = self.nodes[envelope.to] else { return }
        guard let message = try? SWIMMessage(decoding: envelope.message) else {
            self.undecodable += 1
            return
        }
        let directives = node.instance.onMessage(message, from: envelope.from, now: self.clock)
        self.nodes[envelope.to] = node
        self.perform(directives, by: envelope.to)
    }

    private mutating func perform(_ directives: [SWIMDirective], by id: NodeID) {
        guard let run = self.nodes[id]?.run else { return }
        for directive in directives {
            switch directive {
            case .send(let message, let to):
                self.network.send(message.encoded(), from: id, to: to, now: self.now)
            case .connect(let address):
                let peer = NodeID(String(address.host.dropLast(".test".count)))
                if self.nodes[peer] != nil, !self.network.isCut(from: id, to: peer) {
                    self.wakeups.insert(.handshake(id, run: run, peer: peer), at: self.now + 2)
                }
            case .startTimer(let timer, let delay):
                self.wakeups.insert(.timer(id, run: run, timer), at: self.now + Self.milliseconds(delay))
            case .event(let event):
                self.events.append((self.now, id, event))
            }
        }
    }

    static func milliseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(seconds) * 1_000 + UInt64(attoseconds / 1_000_000_000_000_000)
    }
}
