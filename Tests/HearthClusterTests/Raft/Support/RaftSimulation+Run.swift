import HearthCluster
import HearthTestKit

extension RaftSimulation {
    /// Runs the chaos phase, heals everything, and requires progress; throws the first violation.
    mutating func run() throws {
        while self.now < self.chaosDuration {
            try self.step(chaos: true)
        }
        self.network.heal()
        self.network.faults = .none
        self.tornCrashes = []
        self.earlyCrashes = []
        for id in self.ids where self.replica(id).node == nil { try self.restart(id) }
        try self.requireLiveness()
    }

    /// Advances to the next event (a delivery, a tick, or a chaos action) and checks safety.
    mutating func step(chaos: Bool) throws {
        let tickID = self.liveIDs.min { self.replica($0).nextTick < self.replica($1).nextTick }
        let tickTime = tickID.map { self.replica($0).nextTick } ?? .max
        let deliveryTime = self.network.nextDeliveryTime ?? .max
        let chaosTime = chaos ? self.nextChaos : .max
        let time = min(tickTime, deliveryTime, chaosTime)
        guard time != .max else { throw self.fail("nothing left to do: every node is down") }
        self.now = time
        if time == chaosTime {
            try self.chaosAction()
            self.nextChaos = self.now + UInt64.random(in: 10...120, using: &self.random)
        } else if time == deliveryTime, let envelope = self.network.deliverNext(notAfter: time) {
            guard self.replicas[envelope.to]?.node != nil else { return }
            try self.update(envelope.to) { $0.step(envelope.message) }
        } else if let tickID {
            self.replicas[tickID]?.nextTick += self.tickInterval
            try self.update(tickID) { $0.tick() }
        }
    }

    /// Runs `body` on a live node and handles its Ready as the shell would.
    mutating func update<T>(_ id: NodeID, _ body: (inout RaftNode) throws -> T) throws -> T {
        // Taken out of the dictionary so that mutating the node never copies its log.
        guard var replica = self.replicas.removeValue(forKey: id), var node = replica.node else {
            preconditionFailure("update of crashed \(id)")
        }
        replica.node = nil
        let result = try body(&node)
        var logChanged = false
        while let ready = node.ready() {
            logChanged = logChanged || !ready.entries.isEmpty || ready.snapshot != nil
            // A leader's appends go before its write, each peer's runs folded, as the node's shell sends them.
            let early = self.coalesced(ready.messagesBeforePersisting)
            for message in early { self.network.send(message, from: message.from, to: message.to, now: self.now) }
            if !early.isEmpty, self.earlyCrashes.remove(id) != nil {
                // Crashes after sending its appends and before writing them: the followers may hold entries the
                // leader lost.
                self.replicas[id] = replica
                self.crash(id, keepingWhatItSent: true)
                return result
            }
            try self.persist(ready, on: id, replica: &replica)
            if self.tornCrashes.remove(id) != nil {
                // Crashes after the write and before anything was sent or applied.
                self.replicas[id] = replica
                self.crash(id)
                return result
            }
            try self.handle(ready, node: &node, replica: &replica)
            node.advance(ready)
        }
        replica.node = node
        self.replicas[id] = replica
        try self.checkNode(id, logChanged: logChanged)
        return result
    }

    /// Step 1 and 2 of the Ready contract: install the snapshot, write entries and hard state.
    private mutating func persist(_ ready: RaftReady, on id: NodeID, replica: inout Replica) throws {
        if let snapshot = ready.snapshot {
            let app = try self.decodeApp(snapshot.data)
            guard app.index == snapshot.metadata.index, self.committed[app.index]?.hash == app.hash || app.index == 0
            else { throw self.fail("\(id) received a snapshot at \(app.index) that matches no committed state") }
            replica.disk.snapshot = snapshot.metadata
            replica.disk.entries = []
            replica.snapshotApp = app
            replica.app = app
            self.statistics.snapshotsInstalled += 1
        }
        if let first = ready.entries.first {
            replica.disk.entries.removeAll { $0.index >= first.index }
            replica.disk.entries.append(contentsOf: ready.entries)
        }
        if let hardState = ready.hardState { replica.disk.hardState = hardState }
    }

    /// A Ready's messages with each peer's runs folded, as `RaftGroupHost` sends them.
    private func coalesced(_ messages: [RaftMessage]) -> [RaftMessage] {
        RaftMessage.coalesced(
            messages, maxEntries: self.configuration.maxAppendEntries, maxBytes: self.configuration.maxAppendBytes)
    }

    /// Steps 3 and 4: send, check reads, answer snapshot requests, apply.
    private mutating func handle(_ ready: RaftReady, node: inout RaftNode, replica: inout Replica) throws {
        for message in self.coalesced(ready.messagesAfterPersisting) {
            self.network.send(message, from: message.from, to: message.to, now: self.now)
        }
        for read in ready.readStates {
            guard let floor = replica.reads.removeValue(forKey: read.context) else { continue }
            guard read.index >= floor else {
                throw self.fail("\(node.id) read index \(read.index) misses index \(floor) committed before the read")
            }
        }
        for peer in ready.snapshotRequests {
            let snapshot = RaftSnapshot(metadata: replica.disk.snapshot, data: Self.encodeApp(replica.snapshotApp))
            try? node.sendSnapshot(snapshot, to: peer)
        }
        for entry in ready.committedEntries { try self.apply(entry, on: node.id, replica: &replica) }
    }

    private mutating func apply(_ entry: RaftEntry, on id: NodeID, replica: inout Replica) throws {
        guard entry.index == replica.app.index + 1 else {
            throw self.fail("\(id) applied index \(entry.index) after \(replica.app.index)")
        }
        let hash = Self.mix(replica.app.hash, entry.index, entry.term, Self.hash(entry.payload))
        let record = Committed(term: entry.term, payload: entry.payload, hash: hash)
        if let known = self.committed[entry.index] {
            guard known == record else {
                throw self.fail("\(id) applied \(entry.index)/\(entry.term), but \(known.term) was committed there")
            }
        } else {
            self.committed[entry.index] = record
            self.highestCommitted = max(self.highestCommitted, entry.index)
        }
        replica.app = AppState(index: entry.index, hash: hash)
        if let proposal = replica.proposals.removeValue(forKey: entry.index), proposal.term == entry.term,
            entry.payload == .command(proposal.data)
        {
            self.acknowledged.append((entry.index, proposal.data))
            self.statistics.acknowledged += 1
        }
    }

    /// At most one leader per term; the node's committed entries equal the committed history; its log matches
    /// every other live log (Raft's Log Matching property) over their uncommitted overlap.
    private mutating func checkNode(_ id: NodeID, logChanged: Bool) throws {
        guard let node = self.replica(id).node else { return }
        if node.role == .leader {
            if let other = self.leaderOfTerm[node.term], other != id {
                throw self.fail("two leaders in term \(node.term): \(other) and \(id)")
            }
            if self.leaderOfTerm[node.term] == nil { self.statistics.leaders += 1 }
            self.leaderOfTerm[node.term] = id
        }
        guard logChanged else { return }
        for other in self.liveIDs where other != id {
            guard let peer = self.replica(other).node else { continue }
            try self.checkLogMatching(node, peer)
        }
    }

    private func checkLogMatching(_ a: RaftNode, _ b: RaftNode) throws {
        let low = max(min(a.log.committed, b.log.committed), a.log.snapshot.index, b.log.snapshot.index)
        var high = min(a.log.lastIndex, b.log.lastIndex)
        while high > low, a.log.term(at: high) != b.log.term(at: high) { high -= 1 }
        guard high > low else { return }
        var index = low + 1
        while index <= high {
            guard a.log.entry(at: index) == b.log.entry(at: index) else {
                throw self.fail("logs of \(a.id) and \(b.id) agree at \(high) but differ at \(index)")
            }
            index += 1
        }
    }

    /// After healing: a leader emerges and a fresh entry commits on every member within the budget.
    private mutating func requireLiveness() throws {
        let deadline = self.now + self.livenessBudget
        let marker = Array("marker-\(self.seed)".utf8)
        var markerIndex: UInt64 = 0
        var nextAttempt = self.now
        while self.now < deadline {
            let markerCommitted = self.committed[markerIndex]?.payload == .command(marker)
            if !markerCommitted, self.now >= nextAttempt, let leader = self.currentLeader {
                let proposal = try self.update(leader) { $0.propose(marker) }
                if case .accepted(let index, let term) = proposal {
                    markerIndex = index
                    self.replicas[leader]?.proposals[index] = (term, marker)
                }
                nextAttempt = self.now + 500
            }
            if markerCommitted, self.membersApplied(markerIndex) {
                try self.checkFinalState()
                return
            }
            try self.step(chaos: false)
        }
        throw self.fail(
            "no progress \(self.livenessBudget) ms after healing (leader: \(self.currentLeader?.name ?? "none"), "
                + "roles: \(self.liveIDs.map { "\($0)=\(self.replica($0).node.map { "\($0.role)/\($0.term)" } ?? "-")" })"
        )
    }

    private func membersApplied(_ index: UInt64) -> Bool {
        guard let leader = self.currentLeader, let membership = self.replica(leader).node?.membership else {
            return false
        }
        return membership.members.allSatisfy { self.replica($0).app.index >= index }
    }

    /// The committed history has no gaps, every acknowledged proposal is in it, and every member applied it.
    private func checkFinalState() throws {
        for index in 1...max(self.highestCommitted, 1) where self.committed[index] == nil {
            throw self.fail("committed history has a gap at \(index)")
        }
        for (index, data) in self.acknowledged where self.committed[index]?.payload != .command(data) {
            throw self.fail("acknowledged proposal at \(index) is missing from the committed history")
        }
        for id in self.liveIDs {
            let app = self.replica(id).app
            guard app.index == 0 || self.committed[app.index]?.hash == app.hash else {
                throw self.fail("\(id) applied a sequence that is not a prefix of the committed history")
            }
        }
    }

    static func mix(_ values: UInt64...) -> UInt64 {
        var hash: UInt64 = 0x243F_6A88_85A3_08D3
        for value in values {
            hash = (hash ^ value) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        return hash
    }

    static func hash(_ payload: RaftEntry.Payload) -> UInt64 {
        var bytes: [UInt8] = []
        RaftEntry(index: 0, term: 0, payload: payload).encode(to: &bytes)
        return bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    static func encodeApp(_ app: AppState) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [app.index, app.hash] {
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        return bytes
    }

    func decodeApp(_ bytes: [UInt8]) throws -> AppState {
        guard bytes.count == 16 else { throw self.fail("snapshot data has \(bytes.count) bytes, not 16") }
        func read(_ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
        }
        return AppState(index: read(0), hash: read(8))
    }
}
