/// Moves Raft snapshots larger than one chunk between nodes as transfers the follower pulls one chunk at a time, so
/// a snapshot of any size fits the peer transport's frame limit and its bounded per-peer queue (the follower asks
/// for the next chunk only once it has the previous one).
///
/// A pure value; `SnapshotTransferShell` runs it under a lock and sends what it returns. The leader keeps the data of
/// each snapshot it offered (one per follower and group: a newer offer replaces an older one) until the follower
/// says it has everything, or stops asking for `abandonTicks` ticks. The follower keeps one transfer per leader and
/// group; an offer of the snapshot it is already pulling (Raft offers again when a transfer outlasts its patience)
/// changes nothing; an unanswered request goes again every `retryTicks` ticks, and after `maximumRetries` the
/// transfer is given up (the leader offers again). When the last chunk arrives, the follower hands its replica the
/// whole `installSnapshot` message, as if it had come in one frame.
package struct SnapshotTransfers: Sendable {
    /// What the shell does next.
    package enum Action: Sendable, Equatable {
        case send(SnapshotTransferFrame, to: NodeID)
        /// A complete `installSnapshot` message for this node's replica of its group.
        case deliver(RaftMessage)
    }

    private struct Key: Hashable, Sendable {
        var peer: NodeID
        var group: RaftGroupID
    }

    /// A snapshot this node offered, with its data.
    private struct Outgoing: Sendable {
        var snapshot: RaftSnapshot
        var idleTicks = 0
    }

    /// A snapshot this node is pulling: the offer, and the data so far.
    private struct Incoming: Sendable {
        var message: RaftMessage
        var metadata: RaftSnapshotMetadata
        var total: UInt64
        var data: [UInt8] = []
        var idleTicks = 0
        var retries = 0
    }

    /// Unanswered for this many ticks, a follower asks again.
    package static let retryTicks = 10
    /// After this many unanswered requests in a row, a follower gives the transfer up.
    package static let maximumRetries = 5
    /// Not asked for anything for this many ticks, a leader forgets the snapshot it offered.
    package static let abandonTicks = 300
    /// No snapshot claims more bytes than this (1 TiB); an offer that does is ignored.
    package static let maximumTotal: UInt64 = 1 << 40

    /// The most data bytes one chunk carries; a snapshot with more data is transferred in chunks.
    package let chunkBytes: Int
    private var outgoing: [Key: Outgoing] = [:]
    private var incoming: [Key: Incoming] = [:]

    package init(chunkBytes: Int) {
        precondition(chunkBytes >= 1, "a snapshot chunk must carry at least one byte, not \(chunkBytes)")
        self.chunkBytes = chunkBytes
    }

    /// Leader: `message` is about to go to its follower. Returns the offer to send instead when it carries a snapshot
    /// larger than one chunk; nil when it goes as it is.
    package mutating func send(_ message: RaftMessage) -> SnapshotTransferFrame? {
        guard case .installSnapshot(let snapshot) = message.kind, snapshot.data.count > self.chunkBytes else {
            return nil
        }
        self.outgoing[Key(peer: message.to, group: message.group)] = Outgoing(snapshot: snapshot)
        var offer = message
        offer.kind = .installSnapshot(RaftSnapshot(metadata: snapshot.metadata, data: []))
        return .offer(offer, total: UInt64(snapshot.data.count))
    }

    /// A transfer frame from `peer`.
    package mutating func receive(_ frame: SnapshotTransferFrame, from peer: NodeID) -> [Action] {
        switch frame {
        case .offer(let message, let total):
            return self.offered(message, total: total, from: peer)
        case .request(let group, let index, let term, let offset):
            return self.requested(group: group, index: index, term: term, offset: offset, by: peer)
        case .chunk(let group, let index, let term, let offset, let bytes):
            return self.received(group: group, index: index, term: term, offset: offset, bytes: bytes, from: peer)
        case .gone(let group, let index, let term):
            let key = Key(peer: peer, group: group)
            if let transfer = self.incoming[key], transfer.metadata.index == index, transfer.metadata.term == term {
                self.incoming[key] = nil
            }
            return []
        }
    }

    /// One tick of the node's clock: asks again for chunks that did not come, gives up transfers that stalled.
    package mutating func tick() -> [Action] {
        for key in self.outgoing.keys {
            self.outgoing[key]?.idleTicks += 1
            if (self.outgoing[key]?.idleTicks ?? 0) > Self.abandonTicks { self.outgoing[key] = nil }
        }
        var actions: [Action] = []
        for key in self.incoming.keys.sorted(by: { ($0.group, $0.peer) < ($1.group, $1.peer) }) {
            guard var transfer = self.incoming[key] else { continue }
            transfer.idleTicks += 1
            if transfer.idleTicks >= Self.retryTicks {
                transfer.idleTicks = 0
                transfer.retries += 1
                guard transfer.retries <= Self.maximumRetries else {
                    self.incoming[key] = nil
                    continue
                }
                actions.append(.send(Self.request(transfer, group: key.group), to: key.peer))
            }
            self.incoming[key] = transfer
        }
        return actions
    }

    /// Whether a transfer of `group`'s snapshot from `peer` is under way (for tests and status).
    package func isPulling(group: RaftGroupID, from peer: NodeID) -> Bool {
        self.incoming[Key(peer: peer, group: group)] != nil
    }

    private mutating func offered(_ message: RaftMessage, total: UInt64, from peer: NodeID) -> [Action] {
        guard message.from == peer, case .installSnapshot(let snapshot) = message.kind, total <= Self.maximumTotal
        else { return [] }
        let key = Key(peer: peer, group: message.group)
        if let current = self.incoming[key], current.metadata == snapshot.metadata { return [] }
        let transfer = Incoming(message: message, metadata: snapshot.metadata, total: total)
        self.incoming[key] = transfer
        return [.send(Self.request(transfer, group: message.group), to: peer)]
    }

    private mutating func requested(
        group: RaftGroupID, index: UInt64, term: UInt64, offset: UInt64, by peer: NodeID
    ) -> [Action] {
        let key = Key(peer: peer, group: group)
        guard var offered = self.outgoing[key], offered.snapshot.metadata.index == index,
            offered.snapshot.metadata.term == term
        else { return [.send(.gone(group: group, index: index, term: term), to: peer)] }
        let data = offered.snapshot.data
        guard offset < UInt64(data.count) else {
            self.outgoing[key] = nil
            return []
        }
        offered.idleTicks = 0
        self.outgoing[key] = offered
        let start = Int(offset)
        let end = min(start + self.chunkBytes, data.count)
        let chunk = SnapshotTransferFrame.chunk(
            group: group, index: index, term: term, offset: offset, bytes: Array(data[start..<end]))
        return [.send(chunk, to: peer)]
    }

    private mutating func received(
        group: RaftGroupID, index: UInt64, term: UInt64, offset: UInt64, bytes: [UInt8], from peer: NodeID
    ) -> [Action] {
        let key = Key(peer: peer, group: group)
        guard var transfer = self.incoming[key], transfer.metadata.index == index, transfer.metadata.term == term,
            offset == UInt64(transfer.data.count)
        else { return [] }
        guard UInt64(transfer.data.count + bytes.count) <= transfer.total, !bytes.isEmpty else {
            self.incoming[key] = nil
            return []
        }
        transfer.data += bytes
        transfer.idleTicks = 0
        transfer.retries = 0
        let request = Self.request(transfer, group: group)
        guard UInt64(transfer.data.count) == transfer.total else {
            self.incoming[key] = transfer
            return [.send(request, to: peer)]
        }
        self.incoming[key] = nil
        var message = transfer.message
        message.kind = .installSnapshot(RaftSnapshot(metadata: transfer.metadata, data: transfer.data))
        return [.deliver(message), .send(request, to: peer)]
    }

    /// The request for what `transfer` still needs (everything received: the request that ends the transfer).
    private static func request(_ transfer: Incoming, group: RaftGroupID) -> SnapshotTransferFrame {
        .request(
            group: group, index: transfer.metadata.index, term: transfer.metadata.term,
            offset: UInt64(transfer.data.count))
    }
}
