import HearthSystem

/// Sends a node's Raft messages, taking the ones that carry a snapshot larger than one chunk through
/// `SnapshotTransfers` (offer, then chunks the follower pulls over frames of kind `raftSnapshot`), and hands the
/// snapshots this node pulled to its replicas. Without a way to send transfer frames, every message goes whole.
final class SnapshotTransferShell: Sendable {
    private let transfers: Lock<SnapshotTransfers>
    /// Sends an encoded `RaftMessage` (a `raft` frame).
    private let sendMessage: @Sendable (NodeID, [UInt8]) -> Void
    /// Sends an encoded `SnapshotTransferFrame` (a `raftSnapshot` frame), if the node can.
    private let sendPart: (@Sendable (NodeID, [UInt8]) -> Void)?

    init(
        chunkBytes: Int, sendMessage: @escaping @Sendable (NodeID, [UInt8]) -> Void,
        sendPart: (@Sendable (NodeID, [UInt8]) -> Void)?
    ) {
        self.transfers = Lock(SnapshotTransfers(chunkBytes: chunkBytes))
        self.sendMessage = sendMessage
        self.sendPart = sendPart
    }

    /// Sends `message` to its receiver: whole, or as the offer of a transfer.
    func send(_ message: RaftMessage) {
        if let sendPart = self.sendPart, let offer = self.transfers.withLock({ $0.send(message) }) {
            sendPart(message.to, offer.encoded())
        } else {
            self.sendMessage(message.to, message.encoded())
        }
    }

    /// A transfer frame from `peer`; returns the complete snapshot messages it finished.
    func receive(_ frame: SnapshotTransferFrame, from peer: NodeID) -> [RaftMessage] {
        self.perform(self.transfers.withLock { $0.receive(frame, from: peer) })
    }

    /// One tick: requests that went unanswered go again.
    func tick() {
        _ = self.perform(self.transfers.withLock { $0.tick() })
    }

    /// Sends the frames among `actions` and returns the messages to deliver.
    private func perform(_ actions: [SnapshotTransfers.Action]) -> [RaftMessage] {
        var delivered: [RaftMessage] = []
        for action in actions {
            switch action {
            case .send(let frame, let peer): self.sendPart?(peer, frame.encoded())
            case .deliver(let message): delivered.append(message)
            }
        }
        return delivered
    }
}
