import HearthCluster
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import Synchronization

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// A whole cluster — every node's Raft groups, shard actors, coordinator, shard calls, intent resolver, snapshots
/// and read view, the real code — on one thread under one seed: every task of every node runs on one
/// `ManualTaskExecutor`, every node's disk is a `SimulatedFileSystem` written only when the simulation says so,
/// every node has a `ManualNodeClock`, and every frame between nodes crosses a `SimulatedNetwork`.
///
/// At each step the seeded generator picks what happens next: a runnable job, a node's disk writing what it has
/// pending, a frame arriving, or (when nothing else can happen) time moving to the next timer or frame. Faults
/// (`ClusterSimulation+Faults.swift`) and checks (`ClusterSimulation+Checks.swift`) are interleaved the same way, so
/// a failing seed replays exactly.
final class ClusterSimulation {
    /// What the simulation runs.
    struct Options: Sendable {
        var nodes = 3
        var shards = 4
        /// The Raft groups the shards are spread over (the configuration's `groups`); nil for one per shard.
        var groups: Int?
        /// How long clients run and faults strike; afterwards the network heals and the cluster must converge.
        var duration: Duration = .seconds(3)
        /// How long the healed cluster may take to converge.
        var convergence: Duration = .seconds(40)
        var clients = 3
        var operationsPerClient = 6
        /// The nodes' timeouts (`ReplicatedDatabase.open`): short by default, so a fault's stalls end within a run;
        /// a test of how soon a failure is handled sets the servers' own (5 s, 10 s) to show no stall waits them out.
        var callTimeout: Duration = .seconds(1)
        var leaderWait: Duration = .seconds(2)
        var resolveAfter: Duration = .seconds(2)
        var commitTimeout: Duration = .seconds(2)
        /// Whether the others learn of a crash as over TCP when a process dies on a host that stays up: its
        /// connections drop (calls waiting for it fail, its callers' turns end) and frames to it are refused until it
        /// restarts. Off, a crashed machine is only silent, as a host that lost its power or its network.
        var peersSeeCrashes = false
        /// How long a node that has just started holds its clients' requests until it has caught up
        /// (`CatchUpHold`); zero serves at once. Only clients that ask (`waitUntilServing`) are held.
        var catchUpHold: Duration = .zero
    }

    /// An invariant that broke, at a simulated time, in a seed that replays it.
    struct Failure: Error, CustomStringConvertible {
        var seed: UInt64
        var time: Duration
        var message: String

        var description: String {
            "seed \(self.seed) at \(self.time): \(self.message) (replay: scripts/simulate --seeds 1 --from \(self.seed))"
        }
    }

    /// What a run did, summed over seeds for the report.
    struct Statistics: Sendable, CustomStringConvertible {
        var jobs = 0
        var frames = 0
        var crashes = 0
        var tornCrashes = 0
        var partitions = 0
        var clockJumps = 0
        var acknowledged = 0
        var operations = 0
        var registerOperations = 0
        var elections = 0
        var simulated: Duration = .zero

        mutating func add(_ other: Statistics) {
            self.jobs += other.jobs
            self.frames += other.frames
            self.crashes += other.crashes
            self.tornCrashes += other.tornCrashes
            self.partitions += other.partitions
            self.clockJumps += other.clockJumps
            self.acknowledged += other.acknowledged
            self.operations += other.operations
            self.registerOperations += other.registerOperations
            self.elections += other.elections
            self.simulated += other.simulated
        }

        var description: String {
            "\(self.operations) operations (\(self.acknowledged) acknowledged; \(self.registerOperations) register reads and "
                + "compare-and-sets checked for linearizability), \(self.elections) leaders elected, "
                + "\(self.crashes) crashes (\(self.tornCrashes) mid-write), \(self.partitions) partitions, "
                + "\(self.clockJumps) clock jumps, \(self.frames) frames, \(self.jobs) jobs, \(self.simulated) simulated"
        }
    }

    let seed: UInt64
    let options: Options
    var random: SeededRandom
    let executor = ManualTaskExecutor()
    let router: ShardRouter
    let founding: [RaftGroupID: RaftMembership]
    /// The member list the cluster is founded with.
    let members: MemberList
    let machines: [SimulatedMachine]
    /// Raft frames meet every network fault; shard calls and replies travel as over TCP (each arrives at most
    /// once), so they meet loss and delay but no duplication.
    var raftNetwork: SimulatedNetwork<NodeID, PeerFrame>
    var callNetwork: SimulatedNetwork<NodeID, PeerFrame>
    let outbox = Outbox()
    /// The clients' clock: the simulation's own time.
    let clientClock = ManualNodeClock()
    private(set) var time: Duration = .zero
    let workload = SimulatedWorkload()
    /// Clients that ran all their operations.
    let clientsFinished = Tally()
    let applied = AppliedEntries()
    /// Each group's leader of each term seen so far.
    var leaders: [RaftGroupID: [UInt64: NodeID]] = [:]
    var statistics = Statistics()
    /// Faults strike while this is true (until `options.duration`).
    var faultsActive = true
    var nextFault: Duration = .zero
    /// How often (in 16ths of the steps that could run a job) a disk writes instead: a slow disk lets batches
    /// grow, and a crash then tears more of them.
    let diskEagerness: Int

    /// A frame between nodes.
    struct PeerFrame: Sendable {
        var kind: PeerFrameKind
        var payload: [UInt8]
    }

    init(seed: UInt64, options: Options = Options()) {
        self.seed = seed
        self.options = options
        var random = SeededRandom(seed: seed)
        let ids = (1...options.nodes).map { NodeID("n\($0)") }
        let nodes = ids.enumerated().map { index, id in
            ClusterConfiguration.Node(id: id, host: "127.0.0.1", httpPort: 9001 + index, peerPort: 9101 + index)
        }
        // The simulated nodes never change members; the member list's group runs beside the shards' all the same.
        guard
            let configuration = try? ClusterConfiguration(
                name: "simulation", nodes: nodes, shards: options.shards, groups: options.groups, replicationFactor: 3,
                shardDepth: 2)
        else { preconditionFailure("the simulation's configuration of \(options.nodes) nodes is not valid") }
        self.router = configuration.router
        self.members = MemberList(founding: configuration)
        self.founding = self.members.targets(shardCount: configuration.groupCount)
        self.machines = ids.map(SimulatedMachine.init)
        let maximumDelay = UInt64.random(in: 2...250, using: &random)
        let drop = Double.random(in: 0...0.3, using: &random)
        self.raftNetwork = SimulatedNetwork(
            seed: random.next(),
            faults: .init(
                dropRate: drop, duplicateRate: Double.random(in: 0...0.5, using: &random), delay: 1...maximumDelay))
        self.callNetwork = SimulatedNetwork(
            seed: random.next(), faults: .init(dropRate: drop / 3, duplicateRate: 0, delay: 1...maximumDelay))
        self.diskEagerness = Int.random(in: 1...4, using: &random)
        self.random = random
    }

    /// Runs the clients under faults, heals, and checks that the cluster converged with every invariant whole.
    /// - Throws: `Failure` naming the first invariant broken.
    func run() throws {
        for machine in self.machines { self.start(machine) }
        for client in 0..<self.options.clients {
            self.spawnClient(seed: self.seed &* 7_919 &+ UInt64(client))
        }
        // A reader polling the registers and a writer of compare-and-sets, both quick and through random nodes, so
        // a stale read or a lost compare-and-set has every chance to show in the registers' histories.
        if self.options.clients > 0 {
            self.spawnClient(seed: self.seed &* 7_919 &+ 1_000, mix: .reads)
            self.spawnClient(seed: self.seed &* 7_919 &+ 1_001, mix: .compareAndSets)
        }
        self.nextFault = self.randomFaultDelay()
        try self.run(until: self.options.duration)
        try self.heal()
        try self.converge()
        try self.checkFinal()
    }

    /// Starts a new incarnation of `machine` from what its disk holds.
    func start(_ machine: SimulatedMachine) {
        let incarnation = machine.nextIncarnation()
        machine.isUp = true
        machine.diesWhileWriting = false
        machine.restartAt = nil
        machine.clock = ManualNodeClock()
        machine.clock.advance(to: self.time + machine.skew)
        machine.database.set(nil)
        machine.wal.set(nil)
        let id = machine.id
        let outbox = self.outbox
        let applied = self.applied
        let walSlot = machine.wal
        let environment = NodeEnvironment(
            clock: machine.clock, fileSystem: machine.disk, executor: self.executor, walWriter: .manual,
            random: SeededRandom(seed: self.seed ^ UInt64(incarnation) &* 0x9E37_79B9 ^ Self.stableHash(id.name)),
            onCommitted: { group, entries in applied.record(entries, group: group, node: id) },
            onLogOpened: { wal in walSlot.set(wal) })
        let router = self.router
        let founding = self.founding
        let members = self.members
        let options = self.options
        let machines = self.machines
        machine.task = Task(executorPreference: self.executor) {
            let database: ReplicatedDatabase
            do {
                database = try await ReplicatedDatabase.open(
                    directory: "/data/\(id.name)", node: id, router: router, founding: founding, members: members,
                    raft: try RaftConfiguration(electionTicks: 10), tickInterval: .milliseconds(50),
                    callTimeout: options.callTimeout, leaderWait: options.leaderWait,
                    resolveAfter: options.resolveAfter, commitTimeout: options.commitTimeout,
                    catchUpHold: options.catchUpHold,
                    snapshots: ShardSnapshotPolicy(
                        entries: 40, bytes: 1 << 20, retentionInterval: .milliseconds(500), transferChunkBytes: 512),
                    walSegmentBytes: 16 << 10, environment: environment,
                    send: { peer, kind, payload in
                        if options.peersSeeCrashes, machines.first(where: { $0.id == peer })?.isUp == false {
                            return false
                        }
                        outbox.post(
                            from: id, incarnation: incarnation, to: peer, PeerFrame(kind: kind, payload: payload))
                        return true
                    },
                    logger: Log(level: .critical))
            } catch {
                // A machine that crashed while it was starting fails its open against its dead disk: that is the
                // crash, not a refusal. Only the incarnation still running may refuse to start.
                if machine.isCurrent(incarnation) {
                    machine.refusal.set("\(id.name) could not start: \(error)")
                }
                return
            }
            machine.database.set(database)
            try? await database.run()
        }
    }

    /// Stops `machine` as a power cut would: its tasks become ghosts, its disk keeps what was synced (plus, when
    /// `midWrite`, part of a batch it was writing), and frames to and from it are gone.
    func crash(_ machine: SimulatedMachine, midWrite: Bool) {
        if midWrite, let wal = machine.wal.current {
            machine.disk.loseSyncs()
            wal.writePending()
            self.statistics.tornCrashes += 1
        }
        machine.isUp = false
        machine.disk = machine.disk.crash(using: &self.random)
        // The process is gone: whatever its tasks still wait for ends now (its log can no longer write).
        machine.database.current?.view.close()
        if let wal = machine.wal.current {
            Task(executorPreference: self.executor) { await wal.close() }
        }
        machine.dropRequests()
        machine.task?.cancel()
        machine.task = nil
        machine.database.set(nil)
        machine.wal.set(nil)
        self.raftNetwork.dropAll(involving: machine.id)
        self.callNetwork.dropAll(involving: machine.id)
        if self.options.peersSeeCrashes {
            for other in self.machines where other.isUp {
                other.database.current?.calls.connectionLost(to: machine.id)
                other.database.current?.callServer.turns.peerLost(machine.id)
            }
        }
        self.statistics.crashes += 1
    }

    private func spawnClient(seed: UInt64, mix: SimulatedWorkload.Mix = .mixed) {
        let finished = self.clientsFinished
        let workload = self.workload
        let machines = self.machines
        let count = self.options.operationsPerClient * (mix == .reads ? 6 : 1)
        let pause = Duration.milliseconds(mix == .mixed ? 150 : 25)
        let clock = self.clientClock
        let executor = self.executor
        Task(executorPreference: self.executor) {
            await workload.client(seed: seed, count: count, pause: pause, clock: clock, mix: mix) {
                random in
                let up = machines.filter { $0.isUp }
                guard !up.isEmpty else { return nil }
                let machine = up[Int.random(in: 0..<up.count, using: &random)]
                guard let database = machine.database.current else { return nil }
                return SimulatedMachineClient(
                    machine: machine, database: database, incarnation: machine.incarnation, executor: executor)
            }
            finished.add()
        }
    }

    /// Runs steps until simulated time reaches `end`, checking the running invariants as it goes.
    func run(until end: Duration) throws {
        while self.time < end {
            try self.step(end: end)
        }
    }

    /// One step: a job, a disk write, a frame, a fault or a move of time, as the seeded generator picks.
    func step(end: Duration) throws {
        self.deliverOutbox()
        if self.faultsActive && self.nextFault <= self.time && Int.random(in: 0..<48, using: &self.random) == 0 {
            try self.strikeFault()
            self.nextFault = self.time + self.randomFaultDelay()
            return
        }
        let jobs = self.executor.runnableCount
        let writing = self.machines.filter(\.hasPendingWrites)
        let frameDue = self.frameIsDue
        let choice = Int.random(in: 0..<16, using: &self.random)
        if jobs > 0 && (choice < 15 - self.diskEagerness || (writing.isEmpty && !frameDue)) {
            self.executor.runAny(using: &self.random)
            self.statistics.jobs += 1
            return
        }
        if !writing.isEmpty && (choice < 15 || !frameDue) {
            let machine = writing[Int.random(in: 0..<writing.count, using: &self.random)]
            if machine.diesWhileWriting {
                self.crashWhileWriting(machine)
            } else {
                machine.wal.current?.writePending()
            }
            return
        }
        if frameDue {
            self.deliverFrame()
            try self.checkLeaders()
            return
        }
        if jobs > 0 { return }
        self.advanceTime(end: end)
        try self.checkLeaders()
    }

    /// Moves time to the next thing due (a frame, a timer, a restart), at most to `end`. A fault that comes due
    /// strikes at a random later step, so it lands in the middle of whatever the nodes are doing.
    private func advanceTime(end: Duration) {
        var next = end
        for network in [self.raftNetwork.nextDeliveryTime, self.callNetwork.nextDeliveryTime] {
            if let due = network { next = min(next, .milliseconds(Int64(due))) }
        }
        for machine in self.machines {
            if machine.isUp, let deadline = machine.clock.nextDeadline { next = min(next, deadline - machine.skew) }
            if let restart = machine.restartAt { next = min(next, restart) }
        }
        if let deadline = self.clientClock.nextDeadline { next = min(next, deadline) }
        self.time = max(self.time + .milliseconds(1) / 1_000, next)
        for machine in self.machines {
            if machine.isUp { machine.clock.advance(to: self.time + machine.skew) }
            if let restart = machine.restartAt, restart <= self.time { self.start(machine) }
        }
        self.clientClock.advance(to: self.time)
    }

    private var milliseconds: UInt64 { UInt64(max(0, self.time.components.seconds)) * 1_000 + self.subMilliseconds }

    private var subMilliseconds: UInt64 { UInt64(self.time.components.attoseconds / 1_000_000_000_000_000) }

    private var frameIsDue: Bool {
        [self.raftNetwork.nextDeliveryTime, self.callNetwork.nextDeliveryTime].contains { due in
            due.map { $0 <= self.milliseconds } ?? false
        }
    }

    /// Puts what nodes sent on the wire; frames from ghosts (crashed incarnations) vanish.
    private func deliverOutbox() {
        for posted in self.outbox.take() {
            guard let machine = self.machine(posted.from), machine.isCurrent(posted.incarnation) else { continue }
            switch posted.frame.kind {
            case .shardCall, .shardReply:
                self.callNetwork.send(posted.frame, from: posted.from, to: posted.to, now: self.milliseconds)
            default:
                self.raftNetwork.send(posted.frame, from: posted.from, to: posted.to, now: self.milliseconds)
            }
        }
    }

    /// Hands the earliest due frame (Raft or shard call, picked at random when both are due) to its node.
    private func deliverFrame() {
        let useCalls =
            self.callNetwork.nextDeliveryTime.map { $0 <= self.milliseconds } ?? false
            && (!(self.raftNetwork.nextDeliveryTime.map { $0 <= self.milliseconds } ?? false)
                || Bool.random(using: &self.random))
        let envelope =
            useCalls
            ? self.callNetwork.deliverNext(notAfter: self.milliseconds)
            : self.raftNetwork.deliverNext(notAfter: self.milliseconds)
        guard let envelope, let machine = self.machine(envelope.to), machine.isUp,
            let database = machine.database.current
        else { return }
        self.statistics.frames += 1
        database.receive(kind: envelope.message.kind, envelope.message.payload, from: envelope.from)
    }

    func machine(_ id: NodeID) -> SimulatedMachine? {
        self.machines.first { $0.id == id }
    }

    /// A hash of `text` that is the same in every process (`hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    private func randomFaultDelay() -> Duration {
        .milliseconds(Int64.random(in: 100...900, using: &self.random))
    }
}

/// Frames nodes sent, waiting for the simulation to put them on the wire (nodes send from inside jobs; the
/// network is the simulation's).
final class Outbox: Sendable {
    struct Posted: Sendable {
        var from: NodeID
        var incarnation: Int
        var to: NodeID
        var frame: ClusterSimulation.PeerFrame
    }

    private let posted = Mutex<[Posted]>([])

    func post(from: NodeID, incarnation: Int, to: NodeID, _ frame: ClusterSimulation.PeerFrame) {
        self.posted.withLock { $0.append(Posted(from: from, incarnation: incarnation, to: to, frame: frame)) }
    }

    func take() -> [Posted] {
        self.posted.withLock { posted in
            defer { posted.removeAll() }
            return posted
        }
    }
}

/// A count tasks add to and the simulation reads.
final class Tally: Sendable {
    private let count = Atomic(0)

    func add() {
        self.count.add(1, ordering: .relaxed)
    }

    var value: Int { self.count.load(ordering: .relaxed) }
}
